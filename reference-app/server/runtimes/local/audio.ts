import * as wavefileModule from 'wavefile';
import type { MediaRef } from '../runtime';
import { fileRef, invalid } from './inputs';
import type { DemoJob } from './job';

// WAV in and out for the audio handlers; the container is wavefile's (pure JS). Synthesis and
// analysis work on mono Float32 samples in -1..1.

// wavefile ships a UMD bundle (`main`, which Node and the server build load: one default export)
// and an ES module (`module`, which Vite picks when the tests run the server in-process: named
// exports only), so its class is taken from whichever loaded.
const wavefile = (wavefileModule as unknown as { default?: typeof wavefileModule }).default ?? wavefileModule;

export interface Audio {
  samples: Float32Array;
  sampleRate: number;
}

export const durationOf = (audio: Audio) => audio.samples.length / audio.sampleRate;

/** Longest input recording the demo analyses (10 minutes), to bound memory and time. */
const MAX_INPUT_SECONDS = 600;

// How wavefile's bit-depth codes map integer samples to -1..1; compressed codes ('4' ADPCM,
// '8a' A-law, '8m' μ-law) are refused.
const PCM_SCALE: Record<string, { offset: number; range: number }> = {
  '8': { offset: 128, range: 128 },
  '16': { offset: 0, range: 2 ** 15 },
  '24': { offset: 0, range: 2 ** 23 },
  '32': { offset: 0, range: 2 ** 31 },
  '32f': { offset: 0, range: 1 },
  '64': { offset: 0, range: 1 },
};

export function encodeWav(audio: Audio): Uint8Array {
  const pcm = new Int16Array(audio.samples.length);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(Math.max(-1, Math.min(1, audio.samples[i])) * 32767);
  const wav = new wavefile.WaveFile();
  wav.fromScratch(1, audio.sampleRate, '16', pcm);
  return wav.toBuffer();
}

export const storeWav = (job: DemoJob, audio: Audio): Promise<MediaRef> => job.ctx.storeMedia(encodeWav(audio), 'audio/wav');

/** Decodes a WAV file to mono samples, refusing anything else with a message naming the field. */
export function decodeWav(field: string, bytes: Uint8Array, contentType: string): Audio {
  const wav = new wavefile.WaveFile();
  let channels: Float64Array[];
  let sampleRate: number;
  let numChannels: number;
  try {
    wav.fromBuffer(bytes);
    const fmt = wav.fmt as { sampleRate: number; numChannels: number };
    sampleRate = fmt.sampleRate;
    numChannels = fmt.numChannels;
    if (!(sampleRate > 0) || !(numChannels > 0)) throw new Error('no audio format');
    const scale = PCM_SCALE[wav.bitDepth];
    if (!scale) throw new Error(`unsupported WAV encoding (bit depth code ${wav.bitDepth})`);
    // wavefile's own toBitDepth('32f') takes over a second for a few seconds of audio; scaling
    // the integer samples here is the same conversion without the per-sample overhead.
    const raw = wav.getSamples(false, Float64Array) as unknown as Float64Array | Float64Array[];
    channels = (numChannels === 1 ? [raw as Float64Array] : (raw as Float64Array[])).map((c) =>
      c.map((x) => (x - scale.offset) / scale.range),
    );
  } catch (cause) {
    throw invalid(
      field,
      `is not a WAV recording the local-demo runtime can decode (PCM or float WAV); got ${contentType || 'unknown type'}`,
      cause,
    );
  }
  const length = channels[0]?.length ?? 0;
  if (length === 0) throw invalid(field, 'the recording is empty');
  if (length / sampleRate > MAX_INPUT_SECONDS) throw invalid(field, `the recording is longer than ${MAX_INPUT_SECONDS} s`);
  const samples = new Float32Array(length);
  for (const channel of channels) for (let i = 0; i < length; i++) samples[i] += channel[i] / channels.length;
  return { samples, sampleRate };
}

export async function readAudio(job: DemoJob, field: string): Promise<Audio> {
  const file = await job.ctx.readFile(fileRef(job.input, field));
  return decodeWav(field, file.bytes, file.contentType);
}

/** Root-mean-square level of each window of `windowS` seconds. */
export function levels(audio: Audio, windowS: number): number[] {
  const size = Math.max(1, Math.round(audio.sampleRate * windowS));
  const out: number[] = [];
  for (let start = 0; start < audio.samples.length; start += size) {
    const end = Math.min(audio.samples.length, start + size);
    let sum = 0;
    for (let i = start; i < end; i++) sum += audio.samples[i] * audio.samples[i];
    out.push(Math.sqrt(sum / (end - start)));
  }
  return out;
}

/**
 * Fundamental frequency of the loudest 50 ms of the recording, by autocorrelation over the
 * range of human voices (60–400 Hz); undefined when nothing periodic is found.
 */
export function estimatePitch(audio: Audio): number | undefined {
  const size = Math.round(audio.sampleRate * 0.05);
  const windows = levels(audio, 0.05);
  const loudest = windows.indexOf(Math.max(...windows));
  const start = loudest * size;
  const frame = audio.samples.subarray(start, Math.min(audio.samples.length, start + size * 2));
  const minLag = Math.floor(audio.sampleRate / 400);
  const maxLag = Math.min(frame.length - 1, Math.ceil(audio.sampleRate / 60));
  let energy = 0;
  for (const s of frame) energy += s * s;
  if (energy === 0) return undefined;
  let bestLag = 0;
  let best = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    let sum = 0;
    for (let i = 0; i + lag < frame.length; i++) sum += frame[i] * frame[i + lag];
    if (sum > best) [best, bestLag] = [sum, lag];
  }
  return bestLag > 0 && best / energy > 0.3 ? audio.sampleRate / bestLag : undefined;
}
