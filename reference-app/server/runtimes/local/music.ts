import type { RunResult } from '../runtime';
import { type Audio, durationOf, storeWav } from './audio';
import { hash32, prng, wordsOf } from './hash';
import { int, text } from './inputs';
import type { DemoJob } from './job';
import { round } from './numbers';

// music: a short piece composed from the prompt. Words set the tempo (slow, fast…), the mode
// (sad, dark → minor) and the instruments (drums, bass, piano, pad); the prompt's hash picks the
// key and the seeded melody. Rendered as additive synthesis into a WAV.

export const MUSIC_RATE = 22_050;
const STEPS = 8;
const MAJOR = [0, 2, 4, 5, 7, 9, 11];
const MINOR = [0, 2, 3, 5, 7, 8, 10];
const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const PROGRESSION = [0, 5, 3, 4]; // I–vi–IV–V, as scale degrees

const SLOW = new Set(['slow', 'calm', 'ambient', 'relaxing', 'peaceful', 'lullaby', 'chill', 'sleep', 'ballad', 'classical']);
const FAST = new Set(['fast', 'energetic', 'upbeat', 'dance', 'techno', 'house', 'drum', 'rock', 'punk', 'metal', 'electronic', 'edm']);
const SAD = new Set(['sad', 'dark', 'melancholic', 'melancholy', 'minor', 'night', 'rain', 'lonely', 'moody', 'tense', 'horror']);
const NO_DRUMS = new Set(['ambient', 'calm', 'piano', 'solo', 'classical', 'lullaby', 'peaceful', 'sleep']);

export interface Arrangement {
  tempoBpm: number;
  mode: 'major' | 'minor';
  rootMidi: number;
  drums: boolean;
  seed: number;
}

export function arrange(prompt: string, genre: string): Arrangement {
  const words = wordsOf(`${prompt} ${genre}`);
  const seed = hash32(prompt, genre);
  const random = prng(seed);
  const has = (set: Set<string>) => words.some((w) => set.has(w));
  const tempoBpm = has(SLOW)
    ? 64 + Math.floor(random() * 16)
    : has(FAST)
      ? 124 + Math.floor(random() * 24)
      : 90 + Math.floor(random() * 30);
  const mentionsDrums = words.some((w) => w.startsWith('drum') || w === 'beat' || w === 'beats');
  return { tempoBpm, mode: has(SAD) ? 'minor' : 'major', rootMidi: 45 + (seed % 12), drums: mentionsDrums || !has(NO_DRUMS), seed };
}

const midiHz = (m: number) => 440 * 2 ** ((m - 69) / 12);

interface Note {
  start: number;
  seconds: number;
  hz: number;
  gain: number;
  voice: 'lead' | 'bass' | 'pad' | 'kick' | 'hat';
}

function score(a: Arrangement, seconds: number): Note[] {
  const beat = 60 / a.tempoBpm;
  const scale = a.mode === 'major' ? MAJOR : MINOR;
  const degree = (d: number) => a.rootMidi + 12 * Math.floor(d / 7) + scale[((d % 7) + 7) % 7];
  const random = prng(a.seed ^ 0x9e3779b9);
  const notes: Note[] = [];
  let melody = 7;
  for (let bar = 0; bar * 4 * beat < seconds; bar++) {
    const chord = PROGRESSION[bar % PROGRESSION.length];
    const barStart = bar * 4 * beat;
    for (const d of [chord, chord + 2, chord + 4])
      notes.push({ start: barStart, seconds: 4 * beat, hz: midiHz(degree(d) + 12), gain: 0.05, voice: 'pad' });
    notes.push({ start: barStart, seconds: 2 * beat, hz: midiHz(degree(chord) - 12), gain: 0.22, voice: 'bass' });
    notes.push({ start: barStart + 2 * beat, seconds: 2 * beat, hz: midiHz(degree(chord + 4) - 12), gain: 0.18, voice: 'bass' });
    for (let eighth = 0; eighth < 8; eighth++) {
      const at = barStart + (eighth * beat) / 2;
      if (random() < 0.7) {
        melody = Math.max(4, Math.min(16, melody + Math.round((random() - 0.5) * 4)));
        notes.push({ start: at, seconds: beat / 2, hz: midiHz(degree(melody) + 12), gain: 0.16, voice: 'lead' });
      }
      if (a.drums) {
        if (eighth % 4 === 0) notes.push({ start: at, seconds: 0.25, hz: 60, gain: 0.5, voice: 'kick' });
        notes.push({ start: at, seconds: 0.05, hz: 0, gain: 0.05, voice: 'hat' });
      }
    }
  }
  return notes.filter((n) => n.start < seconds);
}

function renderNote(note: Note, out: Float32Array, random: () => number): void {
  const from = Math.round(note.start * MUSIC_RATE);
  const length = Math.min(out.length - from, Math.round(note.seconds * MUSIC_RATE));
  for (let n = 0; n < length; n++) {
    const t = n / MUSIC_RATE;
    const release = Math.min(1, (length - n) / (MUSIC_RATE * 0.02));
    let s: number;
    switch (note.voice) {
      case 'lead':
        s = (Math.sin(2 * Math.PI * note.hz * t) + 0.3 * Math.sin(4 * Math.PI * note.hz * t)) * Math.exp(-3 * t);
        break;
      case 'bass':
        s = Math.sin(2 * Math.PI * note.hz * t) * Math.exp(-1.5 * t);
        break;
      case 'pad':
        s = Math.sin(2 * Math.PI * note.hz * t) * Math.min(1, t * 4);
        break;
      case 'kick':
        s = Math.sin(2 * Math.PI * (note.hz * t + (90 * (1 - Math.exp(-30 * t))) / 30)) * Math.exp(-12 * t);
        break;
      case 'hat':
        s = (random() * 2 - 1) * Math.exp(-60 * t);
        break;
    }
    out[from + n] += s * note.gain * release;
  }
}

export async function composeMusic(job: DemoJob): Promise<RunResult> {
  const prompt = text(job.input, 'prompt', { required: true, max: 2000 });
  const seconds = int(job.input, 'duration_s', { fallback: 30, min: 1, max: 120 });
  const genre = text(job.input, 'genre', { max: 100 });
  await job.step(0.05, 'Choosing tempo, key and instruments');
  const arrangement = arrange(prompt, genre);
  const notes = score(arrangement, seconds);
  const samples = new Float32Array(Math.round(seconds * MUSIC_RATE));
  const random = prng(arrangement.seed);
  for (let step = 0; step < STEPS; step++) {
    const end = Math.round(((step + 1) * notes.length) / STEPS);
    for (let i = Math.round((step * notes.length) / STEPS); i < end; i++) {
      renderNote(notes[i], samples, random);
      if (i % 64 === 63) await job.breathe();
    }
    await job.step(
      0.1 + (0.8 * (step + 1)) / STEPS,
      `Playing bar ${Math.ceil(((step + 1) / STEPS) * (seconds / ((4 * 60) / arrangement.tempoBpm)))}`,
    );
  }
  // Soft limiter: keeps peaks below full scale without clipping the mix.
  for (let i = 0; i < samples.length; i++) samples[i] = Math.tanh(samples[i] * 1.2) * 0.9;
  const audio: Audio = { samples, sampleRate: MUSIC_RATE };
  await job.step(0.95, 'Encoding the WAV');
  const key = `${NOTE_NAMES[arrangement.rootMidi % 12]} ${arrangement.mode}`;
  return {
    audio: await storeWav(job, audio),
    duration_s: round(durationOf(audio)),
    sample_rate: MUSIC_RATE,
    tempo_bpm: arrangement.tempoBpm,
    key,
    drums: arrangement.drums,
  };
}
