import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Jimp } from 'jimp';
import { textPng } from '../../fixtures/textPng';
import type { Job } from '../../../src/api';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, untilFinal } from '../jobs/fixtures';

// Inputs the model tests make themselves (the server README, "Local models"): text rendered to
// a PNG for OCR (test/fixtures/textPng.ts), a shape on a plain
// background for the cutout, and the WAV reader that tells speech from silence; and the one
// input that cannot be made: a photo with a real face, for the face detector.

/** A real photo with a face (public domain; test/fixtures/images/README.md). */
export const ASTRONAUT = fileURLToPath(new URL('../../fixtures/images/astronaut.jpg', import.meta.url));

export const dataUri = (bytes: Uint8Array, type: string) => `data:${type};base64,${Buffer.from(bytes).toString('base64')}`;

/** `text` in black Open Sans 64 px on white (test/fixtures/textPng.ts), as a PNG data: URI. */
export async function textImage(text: string, width = 720, height = 160): Promise<string> {
  return dataUri(await textPng(text, width, height), 'image/png');
}

/** A filled circle of `rgba` on a plain background, as a PNG data: URI. */
export async function shapeImage(size = 240, background = 0xe8eef4ff, shape = 0xd23c28ff): Promise<string> {
  const image = new Jimp({ width: size, height: size, color: background });
  const r = size / 4;
  image.scan(0, 0, size, size, (x, y) => {
    if ((x - size / 2) ** 2 + (y - size / 2) ** 2 <= r * r) image.setPixelColor(shape, x, y);
  });
  return dataUri(await image.getBuffer('image/png'), 'image/png');
}

/** `text` spoken by eSpeak NG (lime-voice's program) as a 22 050 Hz WAV: speech for the recogniser's timing test and bench. */
export function speechWav(text: string): Buffer {
  return execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '140', '--stdout', text], { maxBuffer: 64 * 1024 * 1024 });
}

/** `seconds` of a 440 Hz tone as a 16-bit mono WAV at 16 kHz: a recording with no words in it. */
export function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'latin1');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'latin1');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'latin1');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return wav;
}

/** Duration and loudness of a 16-bit PCM mono WAV: RMS over the whole clip, and the share of 20 ms windows that are not silent. */
export function wavStats(wav: Buffer) {
  const rate = wav.readUInt32LE(24);
  let at = 12;
  while (wav.toString('latin1', at, at + 4) !== 'data') at += 8 + wav.readUInt32LE(at + 4);
  const declared = wav.readUInt32LE(at + 4);
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + at + 8, wav.byteOffset + wav.length));
  const window = Math.round(rate / 50);
  let sum = 0;
  let voiced = 0;
  for (let w = 0; w < samples.length; w += window) {
    let energy = 0;
    for (let i = w; i < Math.min(samples.length, w + window); i++) energy += (samples[i]! / 32768) ** 2;
    sum += energy;
    if (Math.sqrt(energy / window) > 0.02) voiced++;
  }
  return {
    sampleRate: rate,
    declaredBytes: declared,
    seconds: samples.length / rate,
    rms: Math.sqrt(sum / samples.length),
    voicedShare: voiced / Math.ceil(samples.length / window),
  };
}

/** Runs one endpoint of a seeded service as a fresh user and waits for the job's end. */
export async function runService(
  server: PlatformTestServer,
  token: string,
  service_id: string,
  endpoint: string,
  input: object,
): Promise<Job> {
  const created = await rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id, endpoint, input } });
  if (created.status !== 201) throw new Error(`${service_id}: ${created.status} ${JSON.stringify(created.json)}`);
  return untilFinal(server, token, String(created.json.job_id));
}

/** A file of a result, downloaded as the owner. */
export async function download(server: PlatformTestServer, token: string, url: string): Promise<Buffer> {
  const response = await fetch(new URL(url, server.url), { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

export { runner };
