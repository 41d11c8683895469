import { describe, expect, it } from 'vitest';
import { estimatePitch } from '../../../../reference-app/server/runtimes/local/audio';
import wavefile from 'wavefile';
import { dataUri, decodeWav, mediaOf, runKind, tone, wavUri } from './harness';

// Audio outputs of the local-demo runtime: valid WAV files whose length and pitch follow the input.

const pitchOf = (wav: ReturnType<typeof decodeWav>) =>
  estimatePitch({ samples: Float32Array.from(wav.samples), sampleRate: wav.fmt.sampleRate });

describe('tts', () => {
  it('writes a mono 16-bit WAV whose duration grows with the text', async () => {
    const short = await runKind('tts', { text: 'Hello there.' });
    const long = await runKind('tts', { text: 'Hello there. This sentence is quite a lot longer than the first one was.' });
    const a = decodeWav(mediaOf(short, short.result.audio));
    const b = decodeWav(mediaOf(long, long.result.audio));
    expect(a.fmt).toMatchObject({ numChannels: 1, sampleRate: 16_000, bitsPerSample: 16 });
    expect(Buffer.from(mediaOf(short, short.result.audio).bytes.subarray(0, 12)).toString('latin1')).toMatch(/^RIFF.{4}WAVE$/s);
    expect(a.seconds).toBeGreaterThan(0.5);
    expect(b.seconds).toBeGreaterThan(a.seconds * 3);
    expect(short.result.duration_s).toBeCloseTo(a.seconds, 1);
    // Not silence: speech has energy.
    expect(Math.max(...a.samples.map(Math.abs))).toBeGreaterThan(0.1);
  });

  it('speaks each voice at its own pitch, deterministically, and faster with speed', async () => {
    const text = 'aaaa oooo aaaa';
    const aria = await runKind('tts', { text, voice: 'aria' });
    const onyx = await runKind('tts', { text, voice: 'onyx' });
    const again = await runKind('tts', { text, voice: 'aria' });
    expect(Buffer.from(mediaOf(aria, aria.result.audio).bytes).equals(Buffer.from(mediaOf(again, again.result.audio).bytes))).toBe(true);
    expect(pitchOf(decodeWav(mediaOf(aria, aria.result.audio)))).toBeGreaterThan(
      pitchOf(decodeWav(mediaOf(onyx, onyx.result.audio)))! * 1.5,
    );
    const fast = await runKind('tts', { text, speed: 2 });
    expect(fast.result.duration_s as number).toBeLessThan((aria.result.duration_s as number) * 0.6);
  });

  it('says that it wrote WAV when another format was asked, and refuses unknown formats', async () => {
    const run = await runKind('tts', { text: 'Hi', format: 'mp3' });
    expect(run.result.notes).toEqual(['The local-demo runtime writes WAV only; mp3 was requested.']);
    await expect(runKind('tts', { text: 'Hi', format: 'flac' })).rejects.toThrow('format: must be one of mp3, wav, ogg');
  });
});

describe('voice-cloning', () => {
  it('measures the pitch of the reference recording and speaks at it', async () => {
    const reference_audio = wavUri(1, tone(150));
    const run = await runKind('voice-cloning', { reference_audio, text: 'aaaa oooo' });
    expect(run.result.pitch_hz).toBeGreaterThan(140);
    expect(run.result.pitch_hz).toBeLessThan(160);
    expect(run.result.reference_duration_s).toBe(1);
    const spoken = pitchOf(decodeWav(mediaOf(run, run.result.audio)))!;
    expect(Math.abs(spoken - 150 * 1.05)).toBeLessThan(25);
  });

  it('refuses a reference that is not WAV, naming the field', async () => {
    const mp3 = dataUri(new Uint8Array([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 0]), 'audio/mpeg');
    await expect(runKind('voice-cloning', { reference_audio: mp3, text: 'hi' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^reference_audio: is not a WAV recording .*got audio\/mpeg$/),
    });
  });
});

describe('music', () => {
  it('composes a WAV of the requested length, in a mode and tempo the prompt suggests', async () => {
    const sad = await runKind('music', { prompt: 'slow sad piano at night', duration_s: 3 });
    const wav = decodeWav(mediaOf(sad, sad.result.audio));
    expect(wav.seconds).toBeCloseTo(3, 2);
    expect(wav.fmt.sampleRate).toBe(22_050);
    expect(sad.result.key).toMatch(/ minor$/);
    expect(sad.result.tempo_bpm).toBeLessThan(80);
    expect(sad.result.drums).toBe(false);
    const happy = await runKind('music', { prompt: 'fast happy dance track with drums', duration_s: 3 });
    expect(happy.result.key).toMatch(/ major$/);
    expect(happy.result.tempo_bpm).toBeGreaterThan(120);
    expect(happy.result.drums).toBe(true);
    expect(Math.max(...wav.samples.map(Math.abs))).toBeGreaterThan(0.05);
    expect(Math.max(...wav.samples.map(Math.abs))).toBeLessThanOrEqual(0.9);
  });

  it('refuses a duration beyond the demo limit', async () => {
    await expect(runKind('music', { prompt: 'x', duration_s: 600 })).rejects.toThrow('duration_s: must be between 1 and 120');
  });
});

describe('stt', () => {
  // 0.5 s silence, 0.6 s tone, 0.7 s silence, 0.4 s quieter tone, 0.3 s silence.
  const speechLike = (t: number) => (t >= 0.5 && t < 1.1 ? tone(220, 0.6)(t) : t >= 1.8 && t < 2.2 ? tone(180, 0.1)(t) : 0);

  it('finds the segments with sound, with their times, and streams the transcript line by line', async () => {
    const run = await runKind('stt', { audio: wavUri(2.5, speechLike), timestamps: true });
    const segments = run.result.segments as { start: number; end: number; level_db: number }[];
    expect(segments).toHaveLength(2);
    expect(segments[0].start).toBeCloseTo(0.5, 1);
    expect(segments[0].end).toBeCloseTo(1.1, 1);
    expect(segments[1].start).toBeCloseTo(1.8, 1);
    expect(segments[1].level_db).toBeLessThan(segments[0].level_db);
    expect(run.result.duration_s).toBe(2.5);
    expect(run.partials.join('')).toBe(run.result.text);
    expect(run.partials.length).toBe(3);
    expect(run.result.words).toHaveLength(2);
  });

  it('refuses a file that is not WAV', async () => {
    await expect(runKind('stt', { audio: dataUri(new TextEncoder().encode('not audio'), 'audio/ogg') })).rejects.toThrow(
      /^audio: is not a WAV recording/,
    );
  });
});

describe('stt on a steady recording', () => {
  // A 0.5-amplitude sine has an RMS of 0.354, i.e. -9 dBFS.
  it('reports one segment for sound that never pauses', async () => {
    const run = await runKind('stt', { audio: wavUri(1, tone(200)) });
    expect(run.result.segments).toEqual([{ start: 0, end: 1, level_db: -9, text: '[sound, loud]' }]);
  });
});

describe('WAV inputs', () => {
  const reencoded = (convert: (wav: InstanceType<typeof wavefile.WaveFile>) => void) => {
    const wav = new wavefile.WaveFile(Buffer.from(wavUri(1, tone(200)).split(',')[1], 'base64'));
    convert(wav);
    return dataUri(wav.toBuffer(), 'audio/wav');
  };

  it.each([
    ['8-bit', (w: InstanceType<typeof wavefile.WaveFile>) => w.toBitDepth('8')],
    ['24-bit', (w: InstanceType<typeof wavefile.WaveFile>) => w.toBitDepth('24')],
    ['float', (w: InstanceType<typeof wavefile.WaveFile>) => w.toBitDepth('32f')],
    [
      'stereo 44.1 kHz',
      (w: InstanceType<typeof wavefile.WaveFile>) => {
        const mono = w.getSamples(false, Int16Array) as unknown as Int16Array;
        w.fromScratch(2, 44_100, '16', [mono, mono]);
      },
    ],
  ])('reads %s PCM at its real level', async (_name, convert) => {
    const run = await runKind('stt', { audio: reencoded(convert) });
    const [segment] = run.result.segments as { level_db: number }[];
    expect(segment.level_db).toBeGreaterThan(-10);
    expect(segment.level_db).toBeLessThan(-8);
  });

  it('refuses compressed WAV with a message naming the field', async () => {
    await expect(runKind('stt', { audio: reencoded((w) => w.toALaw()) })).rejects.toThrow(
      /^audio: is not a WAV recording the local-demo runtime can decode/,
    );
  });
});
