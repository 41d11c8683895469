import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEECH_RECORDING, SPEECH_RECORDING_TEXT, OCR_EXAMPLE } from '../../../reference-app/server/seed';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { ASTRONAUT, dataUri, download, runner, runService, shapeImage, textImage, toneWav, wavStats } from './fixtures';

// The seeded services that run a real model on this server (runtimes/models, docs/architecture.md
// "Local models"), run through the job API on inputs made here, their results checked for content:
// the OCR reads the rendered words back, the voice speaks for as long as the text takes.

let server: PlatformTestServer;
let token: string;
beforeAll(async () => {
  server = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0' } });
  token = (await runner(server, 'models')).token;
}, 60_000);
afterAll(() => server?.close());

type Words = {
  text: string;
  lines: Array<{ text: string; bbox: number[]; words: Array<{ text: string; bbox: number[]; confidence: number }> }>;
};

describe('lime-ocr (Tesseract)', () => {
  it('reads rendered words back, with a box per word inside the image, labelled runtime "local"', async () => {
    const job = await runService(server, token, 'lime-ocr', '/read', { image: await textImage('Limes are green') });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as unknown as Words & { width: number; height: number };
    expect(result.text.trim()).toBe('Limes are green');
    const words = result.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text)).toEqual(['Limes', 'are', 'green']);
    for (const { bbox, confidence } of words) {
      const [x, y, w, h] = bbox;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(result.width);
      expect(y + h).toBeLessThanOrEqual(result.height);
      expect(confidence).toBeGreaterThan(60);
    }
    // Left to right: each word starts after the previous one.
    expect(words[1]!.bbox[0]).toBeGreaterThan(words[0]!.bbox[0] + words[0]!.bbox[2]);
  }, 30_000);

  it('answers its example input exactly as the endpoint example shows', async () => {
    const job = await runService(server, token, 'lime-ocr', '/read', OCR_EXAMPLE.input!);
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.result).toEqual(OCR_EXAMPLE.result);
  }, 30_000);

  it('refuses a language that is not installed and a file that is no image, naming the field', async () => {
    const french = await runService(server, token, 'lime-ocr', '/read', { image: await textImage('Bonjour'), languages: ['xx'] });
    expect(french.status).toBe('FAILED');
    expect(french.error?.message).toMatch(/^languages: xx is not installed here; installed: eng/);
    const text = await runService(server, token, 'lime-ocr', '/read', {
      image: `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`,
    });
    expect(text.status).toBe('FAILED');
    expect(text.error?.message).toMatch(/^image: /);
    // A PNG whose header passes and whose data is cut short.
    const png = Buffer.from((await textImage('Cut')).split(',')[1]!, 'base64');
    const cut = await runService(server, token, 'lime-ocr', '/read', {
      image: `data:image/png;base64,${png.subarray(0, 200).toString('base64')}`,
    });
    expect(cut.status).toBe('FAILED');
    expect(cut.error?.message).toBe('image: could not be decoded as PNG');
  }, 30_000);
});

describe('lime-voice (eSpeak NG)', () => {
  it('speaks the text: a WAV with a true length, mostly voiced, longer for longer text', async () => {
    const short = await runService(server, token, 'lime-voice', '/speak', { text: 'Limes are green.' });
    expect(short.status, JSON.stringify(short.error)).toBe('FINISHED');
    expect(short.runtime).toBe('local');
    const result = short.result as { audio: { url: string; content_type: string }; duration_s: number; language: string; voice: string };
    expect(result).toMatchObject({ language: 'en-us', voice: 'female-1', audio: { content_type: 'audio/wav' } });
    const wav = await download(server, token, result.audio.url);
    const stats = wavStats(wav);
    expect(stats.sampleRate).toBe(22050);
    expect(stats.declaredBytes).toBe(wav.length - 44);
    expect(stats.seconds).toBeCloseTo(result.duration_s, 1);
    expect(stats.seconds).toBeGreaterThan(0.7);
    expect(stats.seconds).toBeLessThan(3);
    expect(stats.rms).toBeGreaterThan(0.03);
    expect(stats.voicedShare).toBeGreaterThan(0.5);

    const long = await runService(server, token, 'lime-voice', '/speak', {
      text: 'Limes are green. Lemons are yellow, and both are sour.',
      language: 'de',
      voice: 'male-2',
      speed: 1.5,
    });
    expect(long.status, JSON.stringify(long.error)).toBe('FINISHED');
    const longStats = wavStats(await download(server, token, (long.result as typeof result).audio.url));
    expect(longStats.seconds).toBeGreaterThan(stats.seconds);
  }, 30_000);
});

describe('lime-cutout (colour model)', () => {
  it('makes the backdrop transparent and keeps the shape opaque, its box where it was drawn', async () => {
    const job = await runService(server, token, 'lime-cutout', '/remove', { image: await shapeImage(240) });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as { image: { url: string; content_type: string }; subject_bbox: number[]; background_colours: string[] };
    expect(result.image.content_type).toBe('image/png');
    expect(result.background_colours).toEqual(['#e8eef4']);
    // The circle of radius 60 around (120, 120): its box is 121 pixels wide, from 60 to 180.
    const [x, y, w, h] = result.subject_bbox;
    for (const [value, expected] of [
      [x, 60],
      [y, 60],
      [w, 121],
      [h, 121],
    ] as const)
      expect(Math.abs(value! - expected)).toBeLessThanOrEqual(2);
    const { data, info } = await sharp(await download(server, token, result.image.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const alpha = (px: number, py: number) => data[(py * info.width + px) * 4 + 3];
    for (const [cx, cy] of [
      [0, 0],
      [239, 0],
      [0, 239],
      [239, 239],
      [120, 20],
      [20, 120],
    ])
      expect(alpha(cx!, cy!)).toBe(0);
    for (const [cx, cy] of [
      [120, 120],
      [90, 120],
      [150, 120],
      [120, 80],
    ])
      expect(alpha(cx!, cy!)).toBe(255);
    // The shape's colour is kept as it was.
    expect([...data.subarray((120 * 240 + 120) * 4, (120 * 240 + 120) * 4 + 3)]).toEqual([0xd2, 0x3c, 0x28]);
  }, 30_000);
});

describe('lime-whisper (PocketSphinx)', () => {
  it("transcribes lime-voice's speech of a known sentence: most of its words, in order, with rising timestamps", async () => {
    // The recogniser is trained on real voices; eSpeak's formant voice at 140 words a minute is the
    // clearest of its voices for it, and even so some short words come back wrong.
    const spoken = await runService(server, token, 'lime-voice', '/speak', {
      text: 'I would like to book a flight to Boston tomorrow morning',
      voice: 'male-3',
      speed: 0.8,
    });
    expect(spoken.status, JSON.stringify(spoken.error)).toBe('FINISHED');
    const wav = await download(server, token, (spoken.result as { audio: { url: string } }).audio.url);
    const job = await runService(server, token, 'lime-whisper', '/transcribe', { audio: dataUri(wav, 'audio/wav') });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as { text: string; duration_s: number; words: Array<{ word: string; start_s: number; end_s: number }> };
    const heard = result.text.split(' ');
    const key = ['would', 'like', 'flight', 'boston', 'tomorrow', 'morning'];
    expect(key.filter((w) => heard.includes(w)).length, result.text).toBeGreaterThanOrEqual(4);
    expect(heard.indexOf('tomorrow')).toBeGreaterThan(heard.indexOf('would'));
    expect(result.words.map((w) => w.word)).toEqual(heard);
    for (const [i, w] of result.words.entries()) {
      expect(w.end_s).toBeGreaterThan(w.start_s);
      if (i > 0) expect(w.start_s).toBeGreaterThanOrEqual(result.words[i - 1]!.end_s);
    }
    expect(result.duration_s).toBeCloseTo(wavStats(wav).seconds, 1);
  }, 60_000);

  it('transcribes its own example recording word for word, as the service page shows it', async () => {
    const recording = readFileSync(`reference-app/public/examples/${SPEECH_RECORDING}`);
    const job = await runService(server, token, 'lime-whisper', '/transcribe', { audio: dataUri(recording, 'audio/wav') });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    expect((job.result as { text: string }).text).toBe(SPEECH_RECORDING_TEXT);
  }, 60_000);

  it('refuses a file that is no WAV and a language that is not installed, naming the field', async () => {
    const mp3 = await runService(server, token, 'lime-whisper', '/transcribe', {
      audio: dataUri(Buffer.from('ID3\x04 not a wav'), 'audio/mpeg'),
    });
    expect(mp3.status).toBe('FAILED');
    expect(mp3.error?.message).toBe('audio: must be a WAV file (RIFF/WAVE)');
    // The endpoint's enum lets the platform refuse another language before any job exists.
    await expect(
      runService(server, token, 'lime-whisper', '/transcribe', { audio: dataUri(toneWav(0.2), 'audio/wav'), language: 'fr' }),
    ).rejects.toThrow(/422 .*language must be one of: en/);
  }, 30_000);
});

describe('lime-vision (OpenCV Haar cascades)', () => {
  it("finds the astronaut's face and both eyes inside it, and draws their boxes on the picture", async () => {
    const job = await runService(server, token, 'lime-vision', '/detect', { image: dataUri(readFileSync(ASTRONAUT), 'image/jpeg') });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as {
      objects: Array<{ label: string; bbox: number[]; score: number }>;
      image: { url: string; content_type: string };
    };
    const faces = result.objects.filter((o) => o.label === 'face');
    const eyes = result.objects.filter((o) => o.label === 'eye');
    expect(faces).toHaveLength(1);
    // Her face spans about x 177–274, y 66–163 of the 512×512 photo.
    const [fx, fy, fw, fh] = faces[0]!.bbox as [number, number, number, number];
    for (const [value, expected] of [
      [fx, 177],
      [fy, 66],
      [fw, 97],
      [fh, 97],
    ] as const)
      expect(Math.abs(value - expected)).toBeLessThanOrEqual(12);
    expect(eyes).toHaveLength(2);
    for (const { bbox } of eyes) {
      const [x, y, w, h] = bbox as [number, number, number, number];
      expect(x).toBeGreaterThanOrEqual(fx);
      expect(x + w).toBeLessThanOrEqual(fx + fw);
      expect(y + h / 2).toBeLessThan(fy + fh / 2);
    }
    // One eye on each side of the face's middle.
    expect(eyes.map((e) => e.bbox[0]! + e.bbox[2]! / 2 < fx + fw / 2).sort()).toEqual([false, true]);
    expect(result.image.content_type).toBe('image/jpeg');
    const { data, info } = await sharp(await download(server, token, result.image.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 512]);
    // The face's box is drawn in lime green on its top edge (JPEG blurs the colour of a thin line a little).
    const at = (fy * 512 + fx + Math.round(fw / 2)) * info.channels;
    const [r, g, b] = [...data.subarray(at, at + 3)] as [number, number, number];
    expect(g).toBeGreaterThan(150);
    expect(g - b).toBeGreaterThan(80);
    expect(g).toBeGreaterThan(r);
  }, 60_000);

  it('finds nothing on a plain shape, and refuses an unknown target, naming the field', async () => {
    const plain = await runService(server, token, 'lime-vision', '/detect', { image: await shapeImage(240) });
    expect(plain.status, JSON.stringify(plain.error)).toBe('FINISHED');
    expect(plain.result).toMatchObject({ objects: [], count: 0 });
    const cat = await runService(server, token, 'lime-vision', '/detect', { image: await shapeImage(64), targets: ['cat'] });
    expect(cat.status).toBe('FAILED');
    expect(cat.error?.message).toBe('targets: must be a non-empty array of "face", "profile_face", "eye"');
  }, 30_000);
});

describe('a missing model', () => {
  it('falls back to the local demo runtime, labelled so, never a crash', async () => {
    const without = await startPlatformServer({
      env: {
        LOCAL_DEMO_STEP_MS: '0',
        TESSERACT_PATH: '/nonexistent/tesseract',
        ESPEAK_NG_PATH: 'no-such-espeak-ng',
        POCKETSPHINX_MODEL_DIR: '/nonexistent/pocketsphinx',
        OPENCV_CASCADES_DIR: '/nonexistent/haarcascades',
      },
    });
    try {
      const { token: own } = await runner(without, 'models-missing');
      const ocr = await runService(without, own, 'lime-ocr', '/read', { image: await textImage('Limes') });
      expect(ocr).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
      expect(JSON.stringify(ocr.result)).toMatch(/local-demo runtime/);
      const voice = await runService(without, own, 'lime-voice', '/speak', { text: 'Limes' });
      expect(voice).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
      // Programs found, their model data missing: the same fallback.
      const speech = await runService(without, own, 'lime-whisper', '/transcribe', { audio: dataUri(toneWav(0.5), 'audio/wav') });
      expect(speech).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
      const faces = await runService(without, own, 'lime-vision', '/detect', { image: await shapeImage(64) });
      expect(faces).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
      expect(JSON.stringify(faces.result)).toMatch(/local-demo runtime/);
    } finally {
      await without.close();
    }
  }, 30_000);

  it('LOCAL_MODELS=off runs every seeded service on the demo', async () => {
    const off = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0', LOCAL_MODELS: 'off' } });
    try {
      const { token: own } = await runner(off, 'models-off');
      const cutout = await runService(off, own, 'lime-cutout', '/remove', { image: await shapeImage(64) });
      expect(cutout).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
    } finally {
      await off.close();
    }
  }, 30_000);
});
