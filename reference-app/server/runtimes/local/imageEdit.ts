import { ResizeStrategy } from 'jimp';
import type { RunResult } from '../runtime';
import { colourOfWord, hslToRgb, type Rgb, toHex } from './colours';
import { hash32, wordsOf } from './hash';
import { canvas, fitWithin, type Image, readImage, storePng } from './images';
import { bool, choice, int, invalid, num, seedOf, text } from './inputs';
import type { DemoJob } from './job';
import { clamp, round } from './numbers';

// Image-to-image handlers: every output is really computed from the input pixels (filters chosen
// by the prompt, resampling, a border-connected background cut-out, an elliptical face paste).

const WORK_SIDE = 2048;
const MAX_UPSCALED_SIDE = 4096;

interface Edit {
  id: string;
  words: string[];
  apply(image: Image, strength: number): void;
}

const EDITS: Edit[] = [
  { id: 'greyscale', words: ['grey', 'gray', 'greyscale', 'grayscale', 'monochrome', 'mono', 'black'], apply: (i) => void i.greyscale() },
  { id: 'sepia', words: ['sepia', 'vintage', 'old', 'retro', 'antique'], apply: (i) => void i.sepia() },
  { id: 'blur', words: ['blur', 'blurry', 'soft', 'dreamy', 'bokeh'], apply: (i, s) => void i.blur(Math.max(1, Math.round(2 + 10 * s))) },
  { id: 'invert', words: ['invert', 'inverted', 'negative'], apply: (i) => void i.invert() },
  { id: 'brighten', words: ['bright', 'brighter', 'light', 'lighter', 'sunny', 'day'], apply: (i, s) => void i.brightness(1 + 0.6 * s) },
  { id: 'darken', words: ['dark', 'darker', 'night', 'moody', 'dim'], apply: (i, s) => void i.brightness(1 - 0.6 * s) },
  { id: 'contrast', words: ['contrast', 'dramatic', 'punchy', 'crisp'], apply: (i, s) => void i.contrast(0.6 * s) },
  { id: 'posterize', words: ['poster', 'posterize', 'cartoon', 'comic', 'flat'], apply: (i, s) => void i.posterize(Math.round(8 - 5 * s)) },
  {
    id: 'pixelate',
    words: ['pixel', 'pixelate', 'pixelated', 'mosaic', '8bit'],
    apply: (i, s) => void i.pixelate(Math.max(2, Math.round(4 + 20 * s))),
  },
  { id: 'mirror', words: ['mirror', 'flip', 'mirrored'], apply: (i) => void i.flip({ horizontal: true, vertical: false }) },
  { id: 'upside-down', words: ['upside'], apply: (i) => void i.flip({ horizontal: false, vertical: true }) },
];

function tint(image: Image, colour: Rgb, amount: number): void {
  const data = image.bitmap.data;
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) data[i + c] = data[i + c] + (colour[c] - data[i + c]) * amount;
}

/** The edits the prompt asks for; a prompt that names none gets a tint in its own colour. */
export function planEdits(prompt: string, seed: number): { edits: Edit[]; tint?: Rgb } {
  const words = new Set(wordsOf(prompt.replace(/black\s*(and|&)\s*white/gi, 'monochrome')));
  const edits = EDITS.filter((e) => e.words.some((w) => words.has(w)));
  // A word that chose an edit ("dark", "black") is not also a colour to tint with.
  const editWords = new Set(edits.flatMap((e) => e.words));
  const named = [...words]
    .filter((w) => !editWords.has(w))
    .map(colourOfWord)
    .find((c) => c !== undefined);
  if (named) return { edits, tint: named };
  return edits.length > 0 ? { edits } : { edits, tint: hslToRgb((hash32(prompt, seed) % 360) / 360, 0.6, 0.5) };
}

export async function editImage(job: DemoJob): Promise<RunResult> {
  const prompt = text(job.input, 'prompt', { required: true, max: 4000 });
  const strength = num(job.input, 'strength', { fallback: 0.6, min: 0, max: 1 });
  await job.step(0.05, 'Reading the image');
  const source = await readImage(job, 'image');
  const seed = seedOf(job.input, prompt);
  const image = fitWithin(source, WORK_SIDE);
  const plan = planEdits(prompt, seed);
  const applied: string[] = [];
  for (const [i, edit] of plan.edits.entries()) {
    edit.apply(image, strength);
    applied.push(edit.id);
    await job.step(0.15 + (0.6 * (i + 1)) / (plan.edits.length + 1), `Applying ${edit.id}`);
  }
  if (plan.tint) {
    await job.step(0.7, `Tinting towards ${toHex(plan.tint)}`);
    tint(image, plan.tint, strength * 0.5);
    applied.push(`tint ${toHex(plan.tint)}`);
  }
  await job.step(0.8, 'Encoding the PNG');
  return { image: await storePng(job, image), width: image.width, height: image.height, applied, seed };
}

// Bicubic resampling of the whole image would hold the event loop for seconds on large inputs;
// strips of rows (with a margin the kernel needs, trimmed afterwards) let other requests run.
const STRIP_ROWS = 48;
const KERNEL_MARGIN = 2;

async function resizeInStrips(job: DemoJob, image: Image, scale: number): Promise<Image> {
  const width = image.width * scale;
  const out = canvas(width, image.height * scale);
  const rowBytes = width * 4;
  for (let y0 = 0; y0 < image.height; y0 += STRIP_ROWS) {
    const y1 = Math.min(image.height, y0 + STRIP_ROWS);
    const top = Math.max(0, y0 - KERNEL_MARGIN);
    const bottom = Math.min(image.height, y1 + KERNEL_MARGIN);
    const strip = image
      .clone()
      .crop({ x: 0, y: top, w: image.width, h: bottom - top })
      .resize({ w: width, h: (bottom - top) * scale, mode: ResizeStrategy.BICUBIC });
    const from = (y0 - top) * scale * rowBytes;
    strip.bitmap.data.copy(out.bitmap.data, y0 * scale * rowBytes, from, from + (y1 - y0) * scale * rowBytes);
    await job.breathe();
  }
  return out;
}

export async function upscaleImage(job: DemoJob): Promise<RunResult> {
  const scale = int(job.input, 'scale', { fallback: 4, min: 2, max: 4 });
  if (scale !== 2 && scale !== 4) throw invalid('scale', 'must be 2 or 4');
  const faceEnhance = bool(job.input, 'face_enhance', false);
  await job.step(0.05, 'Reading the image');
  const image = await readImage(job, 'image');
  const [w, h] = [image.width * scale, image.height * scale];
  if (Math.max(w, h) > MAX_UPSCALED_SIDE) {
    throw invalid(
      'image',
      `is ${image.width}×${image.height}; ×${scale} would exceed the local-demo limit of ${MAX_UPSCALED_SIDE} px per side`,
    );
  }
  await job.step(0.3, `Resampling to ${w}×${h}`);
  const upscaled = await resizeInStrips(job, image, scale);
  await job.step(0.8, 'Encoding the PNG');
  return {
    image: await storePng(job, upscaled),
    width: w,
    height: h,
    scale,
    ...(faceEnhance ? { notes: ['face_enhance has no effect in the local-demo runtime.'] } : {}),
  };
}

/** Median colour of the image's one-pixel border: the demo's guess at the background. */
function borderColour(image: Image): Rgb {
  const { width, height, data } = image.bitmap;
  const channels: number[][] = [[], [], []];
  const add = (x: number, y: number) => {
    const i = (y * width + x) * 4;
    for (let c = 0; c < 3; c++) channels[c].push(data[i + c]);
  };
  for (let x = 0; x < width; x++) {
    add(x, 0);
    add(x, height - 1);
  }
  for (let y = 0; y < height; y++) {
    add(0, y);
    add(width - 1, y);
  }
  return channels.map((v) => v.sort((a, b) => a - b)[v.length >> 1]) as unknown as Rgb;
}

// background-removal: pixels close to the border colour AND connected to the border become
// transparent (flood fill), so a subject of a similar colour inside the frame is kept.
export async function removeBackground(job: DemoJob): Promise<RunResult> {
  const format = choice(job.input, 'output_format', ['png', 'webp'] as const, 'png');
  const matting = bool(job.input, 'alpha_matting', false);
  await job.step(0.05, 'Reading the image');
  const image = fitWithin(await readImage(job, 'image'), WORK_SIDE);
  const { width, height, data } = image.bitmap;
  const background = borderColour(image);
  await job.step(0.25, `Background colour ${toHex(background)}`);
  const distance = (p: number) =>
    Math.abs(data[p * 4] - background[0]) + Math.abs(data[p * 4 + 1] - background[1]) + Math.abs(data[p * 4 + 2] - background[2]);
  const threshold = 60;
  const isBackground = new Uint8Array(width * height);
  const stack: number[] = [];
  const visit = (p: number) => {
    if (!isBackground[p] && distance(p) <= threshold) {
      isBackground[p] = 1;
      stack.push(p);
    }
  };
  for (let x = 0; x < width; x++) {
    visit(x);
    visit((height - 1) * width + x);
  }
  for (let y = 0; y < height; y++) {
    visit(y * width);
    visit(y * width + width - 1);
  }
  let popped = 0;
  while (stack.length > 0) {
    const p = stack.pop()!;
    const x = p % width;
    if (x > 0) visit(p - 1);
    if (x < width - 1) visit(p + 1);
    if (p >= width) visit(p - width);
    if (p < width * (height - 1)) visit(p + width);
    if (++popped % 262_144 === 0) await job.breathe();
  }
  await job.step(0.6, matting ? 'Refining the edges' : 'Cutting out');
  let kept = 0;
  for (let p = 0; p < width * height; p++) {
    // With matting, background pixels near the threshold stay partly visible (soft edges).
    const alpha = isBackground[p] ? (matting ? clamp(Math.round((distance(p) / threshold) * 160) - 40, 0, 255) : 0) : 255;
    data[p * 4 + 3] = alpha;
    if (alpha === 255) kept++;
  }
  await job.step(0.8, 'Encoding the PNG');
  return {
    image: await storePng(job, image),
    width,
    height,
    background_colour: toHex(background),
    foreground_fraction: round(kept / (width * height), 3),
    ...(format === 'webp' ? { notes: ['The local-demo runtime writes PNG only; webp was requested.'] } : {}),
  };
}

// face-swap: no face detection in the demo; the centre of the source (where a portrait's face
// usually is) is pasted into the centre of the target through a feathered ellipse.
export async function swapFace(job: DemoJob): Promise<RunResult> {
  const enhance = bool(job.input, 'enhance', true);
  await job.step(0.05, 'Reading the source face');
  const source = fitWithin(await readImage(job, 'source_image'), WORK_SIDE);
  await job.step(0.2, 'Reading the target image');
  const target = fitWithin(await readImage(job, 'target_image'), WORK_SIDE);
  const side = Math.max(8, Math.round(Math.min(target.width, target.height) * 0.4));
  const crop = Math.max(1, Math.round(Math.min(source.width, source.height) * 0.5));
  const face = source
    .clone()
    .crop({ x: Math.round((source.width - crop) / 2), y: Math.round((source.height - crop) / 2), w: crop, h: crop })
    .resize({ w: side, h: side }) as Image;
  if (enhance) face.contrast(0.1);
  await job.step(0.5, 'Blending the face');
  const x0 = Math.round((target.width - side) / 2);
  const y0 = Math.round((target.height - side) / 2);
  const mask = canvas(side, side);
  mask.scan((x, y, idx) => {
    const d = Math.sqrt(((x - side / 2) / (side * 0.42)) ** 2 + ((y - side / 2) / (side * 0.5)) ** 2);
    const a = clamp(Math.round((1 - d) * 6 * 255), 0, 255);
    mask.bitmap.data.set([a, a, a, 255], idx);
  });
  face.mask({ src: mask });
  target.composite(face, x0, y0);
  await job.step(0.8, 'Encoding the PNG');
  return {
    image: await storePng(job, target),
    width: target.width,
    height: target.height,
    region: { x: x0, y: y0, width: side, height: side },
    notes: ['The local-demo runtime does not detect faces; it swaps the centres of the two images.'],
  };
}
