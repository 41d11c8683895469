// Makes the seeded services' examples (issue 38, item 3):
//   npm run examples
// Runs each endpoint template's example input (exampleInputs.ts) once, on the service's real
// model where this machine has it (runtimes/models: lime-voice, lime-cutout, lime-whisper, lime-vision) and on the local
// demo runtime at its default pace otherwise, and writes what it produced into the repository:
// the media under reference-app/public/examples (served at /media/examples/), and
// media/examples.json (each kind's input, result, runtime, measured run time and cover picture),
// which the seed attaches to the endpoints (media/examples.ts). Running models at seed time would make
// every fresh database and every test template wait for them; this runs once, when an input or
// a runtime changes. Deterministic inputs (seeds given, no clock) give the same files again.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Jimp } from 'jimp';
import sharp from 'sharp';
import { parseDataUri } from '@limelight/widgets/run';
import { EXAMPLE_MEDIA_PATH, readExampleMedia } from '../media/exampleMedia';
import { createLocalDemoRuntime } from '../runtimes/local';
import { createModelRuntimes } from '../runtimes/models';
import { loadModelsConfig } from '../runtimes/models/config';
import type { MediaRef, RunContext, Runtime } from '../runtimes/runtime';
import { textCover, waveformCover } from './exampleCovers';
import { EXAMPLE_INPUTS, PRODUCT_SHOT } from './exampleInputs';
import type { RecordedExample } from '../media/examples';
import { ENDPOINTS } from './endpoints';
import { OCR_EXAMPLE } from './localModels';

const root = process.cwd();
const mediaDir = path.join(root, 'reference-app/public/examples');
const jsonFile = path.join(root, 'reference-app/server/media/examples.json');
mkdirSync(mediaDir, { recursive: true });

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/jpeg': 'jpg',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'model/gltf-binary': 'glb',
  'model/obj': 'obj',
};

function write(name: string, bytes: Uint8Array): MediaRef {
  writeFileSync(path.join(mediaDir, name), bytes);
  return { url: `${EXAMPLE_MEDIA_PATH}${name}`, content_type: '', size: bytes.byteLength };
}

/** A lime with a leaf on a plain studio backdrop: the cutout's and the image tools' input. */
async function productShot(): Promise<Uint8Array> {
  const [w, h] = [320, 240];
  const image = new Jimp({ width: w, height: h, color: 0xeef1f4ff });
  image.scan(0, 0, w, h, (x, y, idx) => {
    const d = Math.hypot((x - 160) / 78, (y - 128) / 66);
    const leaf = Math.hypot((x - 205) / 34, (y - 62) / 13) <= 1;
    if (d <= 1) {
      const light = 1 - 0.35 * Math.hypot((x - 135) / 90, (y - 100) / 80);
      image.bitmap.data.set([Math.round(90 * light), Math.round(190 * light), Math.round(40 * light), 255], idx);
    } else if (leaf) image.bitmap.data.set([40, 120, 40, 255], idx);
  });
  return new Uint8Array(await image.getBuffer('image/png'));
}

/** The run's context: media are kept until the result says under which key they appear. */
function context(kind: string, pending: Map<string, { bytes: Uint8Array; type: string }>): RunContext {
  return {
    jobId: `example_${kind}`,
    attempt: 1,
    serviceId: kind,
    endpoint: ENDPOINTS[kind]![0]!,
    signal: new AbortController().signal,
    progress: () => undefined,
    partialText: () => undefined,
    async storeMedia(bytes, contentType) {
      const url = `pending:${pending.size}`;
      pending.set(url, { bytes, type: contentType });
      return { url, content_type: contentType, size: bytes.byteLength };
    },
    async readFile(value) {
      const data = parseDataUri(value);
      if (data?.base64) return { bytes: new Uint8Array(Buffer.from(data.payload, 'base64')), contentType: data.contentType };
      const name = value.startsWith(EXAMPLE_MEDIA_PATH) ? value.slice(EXAMPLE_MEDIA_PATH.length) : '';
      const file = await readExampleMedia(mediaDir, name);
      if (!file) throw new Error(`${kind}: ${value} is not an example file written before it`);
      return file;
    },
  };
}

/** Writes each produced file as <kind>-<key>.<ext> and points the result at it. */
function placeMedia(kind: string, value: unknown, pending: Map<string, { bytes: Uint8Array; type: string }>, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v, i) => placeMedia(kind, v, pending, key ? `${key}-${i}` : String(i)));
  if (!value || typeof value !== 'object') return value;
  const ref = value as Partial<MediaRef>;
  if (typeof ref.url === 'string' && pending.has(ref.url)) {
    const file = pending.get(ref.url)!;
    return { ...write(`${kind}-${key}.${EXTENSIONS[file.type] ?? 'bin'}`, file.bytes), content_type: file.type };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeMedia(kind, v, pending, key ? `${key}-${k}` : k)]));
}

/**
 * A card's picture: a small WebP of the cover, at most 480×300 (cards and the showcase show it at
 * most ~320 px wide; 480 keeps it sharp on 1.5× screens), a GIF's first frame. The outputs
 * themselves (a 500 KB PNG, a 650 KB GIF) stay for the Playground; a page of cards moves a few
 * KB each instead, within the routes' transfer budgets (test/e2e/budgets.spec.ts).
 */
async function cover(kind: string, picture: Uint8Array): Promise<string> {
  const webp = await sharp(picture)
    .resize({ width: 480, height: 300, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 72 })
    .toBuffer();
  return write(`${kind}-cover.webp`, new Uint8Array(webp)).url;
}

/** The bytes of an example file written before (its URL under /media/examples/). */
const media = async (url: string) => (await readExampleMedia(mediaDir, url.slice(EXAMPLE_MEDIA_PATH.length)))!.bytes;

/** The picture a card shows: the first picture or clip of the result, else one drawn from it (and which it is). */
async function coverOf(kind: string, result: Record<string, unknown>): Promise<Pick<RecordedExample, 'cover' | 'cover_from'>> {
  const refs = Object.values(result).filter((v): v is MediaRef => !!v && typeof v === 'object' && typeof (v as MediaRef).url === 'string');
  const picture = refs.find((r) => /^image\/(png|gif|webp|jpeg)$/.test(r.content_type));
  if (picture) return { cover: await cover(kind, await media(picture.url)), cover_from: 'output' };
  const audio = refs.find((r) => r.content_type === 'audio/wav');
  if (audio) return { cover: await cover(kind, await waveformCover(await media(audio.url))), cover_from: 'sound' };
  const mesh = refs.find((r) => r.content_type.startsWith('model/'));
  const text =
    typeof result.text === 'string'
      ? result.text
      : mesh
        ? `3D model (glb): ${String(result.vertices)} vertices, ${String(result.faces)} faces`
        : JSON.stringify(result);
  return { cover: await cover(kind, await textCover(text)), cover_from: 'text' };
}

/**
 * One run of the example, timed in seconds. A real model loads on its first run in a process
 * (the server keeps it loaded), so it runs once before: the time is what a run usually takes.
 */
async function warmRun(runtime: Runtime, kind: string, input: Record<string, unknown>) {
  if (runtime.name !== 'local-demo') await runtime.run(input, context(kind, new Map()));
  const pending = new Map<string, { bytes: Uint8Array; type: string }>();
  const started = performance.now();
  const raw = await runtime.run(input, context(kind, pending));
  return { raw, pending, seconds: Math.round((performance.now() - started) / 10) / 100 };
}

const demo = createLocalDemoRuntime();
const models = createModelRuntimes(loadModelsConfig(process.env));
const examples: Record<string, RecordedExample> = {};

write(PRODUCT_SHOT, await productShot());
write('lime-ocr-image.png', new Uint8Array(Buffer.from(String(OCR_EXAMPLE.input!.image).split(',')[1]!, 'base64')));
// lime-ocr keeps the example written in localModels.ts (its integration test checks a run still
// answers exactly that); its run is timed here for the price shown before a run.
{
  const ocr = models.runtimeFor('lime-ocr');
  const timed = ocr ? await warmRun(ocr, 'lime-ocr', OCR_EXAMPLE.input!) : undefined;
  examples['lime-ocr'] = {
    runtime: ocr ? ocr.name : 'local-demo',
    run_seconds: timed?.seconds ?? null,
    cover: await cover('lime-ocr', await media(`${EXAMPLE_MEDIA_PATH}lime-ocr-image.png`)),
    cover_from: 'input',
  };
}

for (const [kind, input] of EXAMPLE_INPUTS) {
  const runtime: Runtime = models.runtimeFor(kind) ?? demo;
  const { raw, pending, seconds: run_seconds } = await warmRun(runtime, kind, input);
  const result = placeMedia(kind, raw, pending) as Record<string, unknown>;
  examples[kind] = { input, result, runtime: runtime.name, run_seconds, ...(await coverOf(kind, result)) };
  console.log(`${kind}: ${runtime.name}, ${run_seconds} s`);
}

// The chat example is computed in endpoints.ts by the demo's own reply function; it gets a cover.
const chat = ENDPOINTS.llm![0]!.example!.result as { text: string };
examples.llm = { runtime: 'local-demo', run_seconds: null, cover: await cover('llm', await textCover(chat.text)), cover_from: 'text' };

// Covers of an earlier generation (PNG before the WebP thumbnails) are no longer referenced.
for (const name of readdirSync(mediaDir)) if (name.endsWith('-cover.png')) rmSync(path.join(mediaDir, name));

writeFileSync(jsonFile, `${JSON.stringify(examples, null, 2)}\n`);
console.log(`wrote ${Object.keys(examples).length} examples to ${path.relative(root, jsonFile)} and ${path.relative(root, mediaDir)}`);
process.exit(0);
