import { expect } from 'vitest';
import { Jimp } from 'jimp';
import wavefile from 'wavefile';
import type { ServiceEndpoint } from '../../../../src/api';
import { ENDPOINTS } from '../../../../reference-app/server/seed/endpoints';
import { createLocalDemoRuntime } from '../../../../reference-app/server/runtimes/local';
import type { InputFile, MediaRef, RunContext } from '../../../../reference-app/server/runtimes/runtime';

// The seam the job queue fills in production: a RunContext that records progress and streamed
// text and keeps stored media in memory, so the tests can decode what a runtime produced.

export interface Recorded {
  ctx: RunContext;
  controller: AbortController;
  progress: { fraction: number; message?: string }[];
  partials: string[];
  media: Map<string, InputFile>;
}

export function testContext(
  endpoint: ServiceEndpoint,
  hooks: { onProgress?: (count: number, controller: AbortController) => void } = {},
): Recorded {
  const controller = new AbortController();
  const media = new Map<string, InputFile>();
  const progress: Recorded['progress'] = [];
  const partials: string[] = [];
  const ctx: RunContext = {
    jobId: 'job_test',
    attempt: 1,
    serviceId: 'svc_test',
    endpoint,
    signal: controller.signal,
    progress(fraction, message) {
      progress.push({ fraction, message });
      hooks.onProgress?.(progress.length, controller);
    },
    partialText: (delta) => void partials.push(delta),
    async storeMedia(bytes, contentType): Promise<MediaRef> {
      const url = `/v1/files/test-${media.size + 1}`;
      media.set(url, { bytes: new Uint8Array(bytes), contentType });
      return { url, content_type: contentType, size: bytes.byteLength };
    },
    async readFile(ref) {
      const data = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(ref);
      if (data)
        return { contentType: data[1], bytes: new Uint8Array(Buffer.from(decodeURIComponent(data[3]), data[2] ? 'base64' : 'utf8')) };
      const stored = media.get(ref);
      if (!stored) throw new Error(`no such file: ${ref}`);
      return stored;
    },
  };
  return { ctx, controller, progress, partials, media };
}

/** The fast runtime the tests use: no pause between steps. */
export const runtime = createLocalDemoRuntime({ stepDelayMs: 0 });

/** The seeded template of a kind (its first endpoint). */
export const endpointOf = (kind: string): ServiceEndpoint => ENDPOINTS[kind][0];

/** Runs a seeded kind and returns the result with the recorded context. */
export async function runKind(kind: string, input: Record<string, unknown>, endpoint = endpointOf(kind)) {
  const recorded = testContext(endpoint);
  const result = (await runtime.run(input, recorded.ctx)) as Record<string, unknown>;
  return { result, ...recorded };
}

/** The bytes of a MediaRef in the result. */
export function mediaOf(recorded: { media: Map<string, InputFile> }, ref: unknown): InputFile {
  const file = recorded.media.get((ref as MediaRef).url);
  if (!file) throw new Error(`result does not reference stored media: ${JSON.stringify(ref)}`);
  return file;
}

export const dataUri = (bytes: Uint8Array, contentType: string) => `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;

/** A PNG data: URI drawn by `paint(x, y) -> [r, g, b]`. */
export async function pngUri(width: number, height: number, paint: (x: number, y: number) => readonly [number, number, number]) {
  const image = new Jimp({ width, height, color: 0xffffffff });
  image.scan((x, y, idx) => {
    const [r, g, b] = paint(x, y);
    image.bitmap.data.set([r, g, b, 255], idx);
  });
  return dataUri(new Uint8Array(await image.getBuffer('image/png')), 'image/png');
}

export async function decodePng(file: InputFile) {
  expect(file.contentType).toBe('image/png');
  return Jimp.read(Buffer.from(file.bytes));
}

/** A mono 16-bit WAV data: URI of `seconds` of audio from `sample(t)` in -1..1. */
export function wavUri(seconds: number, sample: (t: number) => number, sampleRate = 16_000): string {
  const pcm = Int16Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) => Math.round(sample(i / sampleRate) * 32767));
  const wav = new wavefile.WaveFile();
  wav.fromScratch(1, sampleRate, '16', pcm);
  return dataUri(wav.toBuffer(), 'audio/wav');
}

export function decodeWav(file: InputFile) {
  expect(file.contentType).toBe('audio/wav');
  const wav = new wavefile.WaveFile(file.bytes);
  const fmt = { ...(wav.fmt as { sampleRate: number; numChannels: number; bitsPerSample: number }) };
  wav.toBitDepth('32f');
  const samples = wav.getSamples(false, Float64Array) as Float64Array;
  return { fmt, samples, seconds: samples.length / fmt.sampleRate };
}

export const tone =
  (hz: number, level = 0.5) =>
  (t: number) =>
    level * Math.sin(2 * Math.PI * hz * t);
