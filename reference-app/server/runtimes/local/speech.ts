import type { RunResult } from '../runtime';
import { type Audio, durationOf, estimatePitch, readAudio, storeWav } from './audio';
import { hash32, prng } from './hash';
import { choice, num, text } from './inputs';
import type { DemoJob } from './job';
import { round } from './numbers';

// tts and voice-cloning: a small formant synthesiser. Vowels are voiced tones whose harmonics are
// shaped by the vowel's first two formants, consonants are noise bursts or short voiced murmurs,
// spaces and punctuation are pauses. The result is robotic but really spoken from the text:
// longer text, longer audio; a different voice, a different pitch.

export const SPEECH_RATE = 16_000;
const CHUNKS = 8;

const FORMANTS: Record<string, [number, number]> = {
  a: [730, 1090],
  e: [530, 1840],
  i: [270, 2290],
  o: [570, 840],
  u: [300, 870],
  y: [270, 2100],
};
const VOICED = new Set('lmnrwvjzbdg');
const PLOSIVE = new Set('pbtdkgcq');
const PRESET_PITCH: Record<string, number> = { aria: 210, nova: 190, alloy: 160, echo: 120, onyx: 95, sage: 140 };

export interface Voice {
  pitchHz: number;
  speed: number;
  seed: number;
}

// Segment of sound for one character: [seconds, kind, formants].
type Segment = { seconds: number; kind: 'vowel' | 'voiced' | 'noise' | 'silence'; formants: [number, number] };

function segmentOf(char: string): Segment {
  const c = char.normalize('NFD')[0].toLowerCase();
  if (FORMANTS[c]) return { seconds: 0.12, kind: 'vowel', formants: FORMANTS[c] };
  if (/\d/.test(c)) return { seconds: 0.14, kind: 'vowel', formants: [500, 1500] };
  if (VOICED.has(c)) return { seconds: 0.07, kind: 'voiced', formants: [300, 1200] };
  if (/[\p{L}]/u.test(c)) return { seconds: PLOSIVE.has(c) ? 0.05 : 0.08, kind: 'noise', formants: [0, 0] };
  if (/[.!?;:]/.test(c)) return { seconds: 0.3, kind: 'silence', formants: [0, 0] };
  if (c === ',') return { seconds: 0.16, kind: 'silence', formants: [0, 0] };
  return { seconds: 0.06, kind: 'silence', formants: [0, 0] };
}

const resonance = (f: number, centre: number, bandwidth: number) => 1 / (1 + ((f - centre) / bandwidth) ** 2);

function render(segment: Segment, voice: Voice, out: Float32Array, at: number, random: () => number, pitchDrift: number): number {
  const length = Math.round((segment.seconds / voice.speed) * SPEECH_RATE);
  const ramp = Math.min(length / 2, SPEECH_RATE * 0.01);
  const f0 = voice.pitchHz * pitchDrift;
  const harmonics: [number, number][] = [];
  if (segment.kind === 'vowel' || segment.kind === 'voiced') {
    for (let k = 1; k * f0 < 3500; k++) {
      const f = k * f0;
      const gain = resonance(f, segment.formants[0], 90) + 0.6 * resonance(f, segment.formants[1], 120) + 0.05;
      harmonics.push([f, gain / Math.sqrt(k)]);
    }
  }
  const level = segment.kind === 'vowel' ? 0.35 : segment.kind === 'voiced' ? 0.18 : 0.12;
  const norm = harmonics.reduce((s, [, g]) => s + g, 0) || 1;
  for (let n = 0; n < length && at + n < out.length; n++) {
    const envelope = Math.min(1, n / ramp, (length - n) / ramp);
    let sample = 0;
    if (segment.kind === 'noise') sample = random() * 2 - 1;
    else if (harmonics.length > 0) {
      const t = n / SPEECH_RATE;
      for (const [f, g] of harmonics) sample += (g / norm) * Math.sin(2 * Math.PI * f * t);
    }
    out[at + n] = sample * level * envelope;
  }
  return length;
}

/** Speaks `words` in the given voice, in CHUNKS progress steps. */
export async function speak(job: DemoJob, words: string, voice: Voice, from: number, to: number): Promise<Audio> {
  const chars = [...words];
  const segments = chars.map(segmentOf);
  const total = segments.reduce((s, seg) => s + Math.round((seg.seconds / voice.speed) * SPEECH_RATE), 0);
  const samples = new Float32Array(total + SPEECH_RATE / 10);
  const random = prng(voice.seed);
  let at = 0;
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    const end = Math.round(((chunk + 1) * segments.length) / CHUNKS);
    for (let i = Math.round((chunk * segments.length) / CHUNKS); i < end; i++) {
      // A gentle fall of pitch through each sentence, as in read speech.
      const drift = 1.1 - 0.2 * ((i % 80) / 80);
      at += render(segments[i], voice, samples, at, random, drift);
      if (i % 32 === 31) await job.breathe();
    }
    await job.step(from + ((to - from) * (chunk + 1)) / CHUNKS, `Speaking: ${Math.min(chars.length, end)} of ${chars.length} characters`);
  }
  return { samples, sampleRate: SPEECH_RATE };
}

const FORMATS = ['mp3', 'wav', 'ogg'] as const;

export async function textToSpeech(job: DemoJob): Promise<RunResult> {
  const words = text(job.input, 'text', { required: true, max: 5000 });
  const voiceName = text(job.input, 'voice', { fallback: 'aria', max: 100 });
  const speed = num(job.input, 'speed', { fallback: 1, min: 0.25, max: 4 });
  const format = choice(job.input, 'format', FORMATS, 'mp3');
  await job.step(0.05, `Preparing voice “${voiceName}”`);
  const pitchHz = PRESET_PITCH[voiceName.toLowerCase()] ?? 95 + (hash32(voiceName.toLowerCase()) % 135);
  const audio = await speak(job, words, { pitchHz, speed, seed: hash32(words, voiceName) }, 0.1, 0.9);
  await job.step(0.95, 'Encoding the WAV');
  return {
    audio: await storeWav(job, audio),
    duration_s: round(durationOf(audio)),
    sample_rate: audio.sampleRate,
    voice: voiceName,
    pitch_hz: Math.round(pitchHz),
    ...(format === 'wav' ? {} : { notes: [`The local-demo runtime writes WAV only; ${format} was requested.`] }),
  };
}

export async function cloneVoice(job: DemoJob): Promise<RunResult> {
  const words = text(job.input, 'text', { required: true, max: 5000 });
  text(job.input, 'language', { fallback: 'en', max: 20 });
  await job.step(0.05, 'Reading the reference recording');
  const reference = await readAudio(job, 'reference_audio');
  const measured = estimatePitch(reference);
  await job.step(
    0.15,
    measured ? `Reference voice pitch ≈ ${Math.round(measured)} Hz` : 'No clear pitch in the reference; using a neutral voice',
  );
  const pitchHz = measured ?? 150;
  const audio = await speak(job, words, { pitchHz, speed: 1, seed: hash32(words, Math.round(pitchHz)) }, 0.2, 0.9);
  await job.step(0.95, 'Encoding the WAV');
  return {
    audio: await storeWav(job, audio),
    duration_s: round(durationOf(audio)),
    sample_rate: audio.sampleRate,
    reference_duration_s: round(durationOf(reference)),
    pitch_hz: Math.round(pitchHz),
    ...(measured ? {} : { notes: ['No periodic voice was found in the reference recording; a neutral pitch was used.'] }),
  };
}
