import { gifenc } from './gifencModule';
import type { RunResult } from '../runtime';
import { luminance, nameOfColour, type Rgb, toHex } from './colours';
import { fitWithin, type Image, readImage } from './images';
import { choice, invalid } from './inputs';
import type { DemoJob } from './job';
import { round } from './numbers';

// Captioning and OCR from what the demo can really measure in an image: size, orientation,
// brightness, contrast, dominant colours (gifenc's quantiser), and where dark-on-light or
// light-on-dark marks form lines of text. It describes; it does not recognise objects or letters.

const SAMPLE_SIDE = 128;

export interface ImageFacts {
  width: number;
  height: number;
  orientation: 'landscape' | 'portrait' | 'square';
  brightness: number;
  contrast: number;
  colours: { hex: string; name: string; share: number }[];
}

export function measureImage(image: Image): ImageFacts {
  const sample = fitWithin(image, SAMPLE_SIDE);
  const data = sample.bitmap.data;
  const pixels = data.length / 4;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < data.length; i += 4) {
    const l = luminance(data[i], data[i + 1], data[i + 2]);
    sum += l;
    sumSq += l * l;
  }
  const mean = sum / pixels;
  const palette = gifenc.quantize(data, 8);
  const index = gifenc.applyPalette(data, palette);
  const counts = new Array<number>(palette.length).fill(0);
  for (const i of index) counts[i]++;
  const byName = new Map<string, { hex: string; share: number }>();
  palette.forEach((rgb, i) => {
    if (counts[i] === 0) return;
    const name = nameOfColour(rgb as unknown as Rgb);
    const entry = byName.get(name) ?? { hex: toHex(rgb as unknown as Rgb), share: 0 };
    entry.share += counts[i] / pixels;
    byName.set(name, entry);
  });
  const colours = [...byName.entries()]
    .map(([name, e]) => ({ name, hex: e.hex, share: round(e.share, 3) }))
    .sort((a, b) => b.share - a.share);
  const ratio = image.width / image.height;
  return {
    width: image.width,
    height: image.height,
    orientation: ratio > 1.1 ? 'landscape' : ratio < 0.9 ? 'portrait' : 'square',
    brightness: round(mean / 255, 3),
    contrast: round(Math.sqrt(Math.max(0, sumSq / pixels - mean * mean)) / 128, 3),
    colours,
  };
}

const tone = (f: ImageFacts) => (f.brightness < 0.3 ? 'dark' : f.brightness > 0.7 ? 'bright' : 'mid-toned');
const texture = (f: ImageFacts) =>
  f.contrast < 0.1 ? 'flat, almost uniform' : f.contrast > 0.5 ? 'high-contrast' : 'moderately contrasted';

export function describe(facts: ImageFacts, detail: 'short' | 'long'): string {
  const main = facts.colours.slice(0, 2).map((c) => c.name);
  const short = `A ${tone(facts)} ${facts.orientation} image, mostly ${main.join(' and ')}.`;
  if (detail === 'short') return short;
  const shares = facts.colours
    .slice(0, 4)
    .map((c) => `${c.name} ${Math.round(c.share * 100)}%`)
    .join(', ');
  return `${short} It is ${facts.width}×${facts.height} pixels and ${texture(facts)}. Colours: ${shares}.`;
}

export async function caption(job: DemoJob): Promise<RunResult> {
  const detail = choice(job.input, 'detail', ['short', 'long'] as const, 'short');
  await job.step(0.1, 'Reading the image');
  const image = await readImage(job, 'image');
  await job.step(0.4, 'Measuring colours and tones');
  const facts = measureImage(image);
  const text = describe(facts, detail);
  job.ctx.partialText(text);
  await job.step(0.9, 'Writing the caption');
  return { text, ...facts, notes: ['The local-demo runtime describes measured properties; it does not recognise objects.'] };
}

type Box = [x: number, y: number, width: number, height: number];

/** Runs of true values as [start, end) pairs, joining gaps up to `gap` long. */
function runs(flags: boolean[], gap: number): [number, number][] {
  const out: [number, number][] = [];
  flags.forEach((on, i) => {
    if (!on) return;
    const last = out.at(-1);
    if (last && i - last[1] <= gap) last[1] = i + 1;
    else out.push([i, i + 1]);
  });
  return out;
}

/**
 * Text-like regions: pixels on the minority side of the mean luminance are "ink"; rows with ink
 * form lines, and within a line, columns with ink form words.
 */
export function findTextLines(image: Image): { bbox: Box; words: Box[] }[] {
  const { width, height, data } = image.bitmap;
  const lum = new Float32Array(width * height);
  let mean = 0;
  for (let p = 0; p < lum.length; p++) mean += lum[p] = luminance(data[p * 4], data[p * 4 + 1], data[p * 4 + 2]);
  mean /= lum.length;
  const darkInk = lum.filter((l) => l < mean - 40).length <= lum.filter((l) => l > mean + 40).length;
  const ink = (p: number) => (darkInk ? lum[p] < mean - 40 : lum[p] > mean + 40);
  const rowHasInk = Array.from({ length: height }, (_, y) => {
    let n = 0;
    for (let x = 0; x < width; x++) if (ink(y * width + x)) n++;
    return n > 0 && n < width * 0.9;
  });
  return runs(rowHasInk, 1)
    .filter(([a, b]) => b - a >= 3)
    .map(([top, bottom]) => {
      const columnHasInk = Array.from({ length: width }, (_, x) => {
        for (let y = top; y < bottom; y++) if (ink(y * width + x)) return true;
        return false;
      });
      const words = runs(columnHasInk, Math.max(2, Math.round((bottom - top) * 0.35))).map(([l, r]): Box => [l, top, r - l, bottom - top]);
      const left = words[0]?.[0] ?? 0;
      const right = words.length ? words[words.length - 1][0] + words[words.length - 1][2] : 0;
      return { bbox: [left, top, right - left, bottom - top] as Box, words };
    })
    .filter((line) => line.words.length > 0);
}

const OCR_SIDE = 1600;

export async function readText(job: DemoJob): Promise<RunResult> {
  const languages = job.input.languages ?? ['en'];
  if (!Array.isArray(languages) || languages.some((l) => typeof l !== 'string'))
    throw invalid('languages', 'must be an array of language codes');
  await job.step(0.1, 'Reading the image');
  const source = await readImage(job, 'image');
  const image = fitWithin(source, OCR_SIDE);
  const scale = source.width / image.width;
  await job.step(0.4, 'Finding lines of text');
  const lines = findTextLines(image);
  const toSource = (b: Box): Box => [
    Math.round(b[0] * scale),
    Math.round(b[1] * scale),
    Math.round(b[2] * scale),
    Math.round(b[3] * scale),
  ];
  await job.step(0.9, `Found ${lines.length} line${lines.length === 1 ? '' : 's'}`);
  return {
    text: '',
    languages,
    width: source.width,
    height: source.height,
    lines: lines.map((line, i) => ({
      bbox: toSource(line.bbox),
      text: `[line ${i + 1}: ${line.words.length} word${line.words.length === 1 ? '' : 's'}]`,
      words: line.words.map((w) => ({ bbox: toSource(w), text: '' })),
    })),
    notes: ['The local-demo runtime locates lines and words of text but does not recognise characters.'],
  };
}
