import sharp from 'sharp';
import { movable, runInThread, type ThreadTask } from '../../http/dataThread';
import type { RunResult } from '../runtime';
import { bool, choice, int } from '../local/inputs';
import type { ModelTool } from './model';
import { rgbaInput } from './rgba';

// lime-cutout: a colour-model cutout, not a learned model (no background-removal model with a
// licence this project can ship is to be had offline: the server README, "Local models"). The
// background's colours are learnt from the image's border (k-means, up to three colours, so a
// gradient or a two-tone backdrop works), every pixel close to them AND connected to the border
// becomes transparent (a subject of a similar colour inside the frame is kept), edges get a soft
// alpha ramp, and specks are dropped. It suits products, logos and portraits on a plain or simple
// backdrop; a busy photo background is not separated. It runs in a worker thread with a capped heap.

interface CutoutInput {
  data: Uint8Array;
  width: number;
  height: number;
  /** Colour distance (RGB, 0–441) below which a border-connected pixel is background. */
  threshold: number;
  soft: boolean;
}

interface CutoutOutput {
  data: Uint8Array;
  background: Array<[number, number, number]>;
  /** Share of pixels kept (alpha > 0). */
  kept: number;
  /** The subject's box [x, y, width, height], or null when nothing was kept. */
  bbox: [number, number, number, number] | null;
}

/** Self-contained (it runs as source text in its own thread: runInThread). */
export const cutoutTask: ThreadTask<CutoutInput, CutoutOutput> = async (input) => {
  const { width: w, height: h, threshold, soft } = input;
  const px = input.data;
  const n = w * h;
  // The border's pixels, and k-means over their colours (farthest-point start, 10 rounds).
  const border: number[] = [];
  for (let x = 0; x < w; x++) border.push(x, (h - 1) * w + x);
  for (let y = 1; y < h - 1; y++) border.push(y * w, y * w + w - 1);
  const colour = (p: number) => [px[p * 4]!, px[p * 4 + 1]!, px[p * 4 + 2]!];
  const dist2 = (a: number[], b: number[]) => (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
  const samples = border.map(colour);
  const centres = [[...samples[0]!]];
  while (centres.length < 3) {
    let far = samples[0]!;
    let farthest = -1;
    for (const s of samples) {
      const d = Math.min(...centres.map((c) => dist2(s, c)));
      if (d > farthest) [farthest, far] = [d, s];
    }
    if (farthest < threshold * threshold) break; // the border is one colour already
    centres.push([...far]);
  }
  let counts: number[] = [];
  for (let round = 0; round < 10; round++) {
    const sums = centres.map(() => [0, 0, 0]);
    counts = centres.map(() => 0);
    for (const s of samples) {
      let best = 0;
      for (let c = 1; c < centres.length; c++) if (dist2(s, centres[c]!) < dist2(s, centres[best]!)) best = c;
      counts[best]!++;
      for (let k = 0; k < 3; k++) sums[best]![k]! += s[k]!;
    }
    centres.forEach((c, i) => counts[i]! > 0 && c.splice(0, 3, ...sums[i]!.map((v) => v / counts[i]!)));
  }
  // A colour on under a fifth of the border is taken for the subject touching the edge, not backdrop.
  const background = centres.filter((_, i) => counts[i]! >= samples.length / 5);
  const distance = new Float32Array(n);
  for (let p = 0; p < n; p++) {
    let nearest = Infinity;
    for (const b of background) {
      const d = (px[p * 4]! - b[0]!) ** 2 + (px[p * 4 + 1]! - b[1]!) ** 2 + (px[p * 4 + 2]! - b[2]!) ** 2;
      if (d < nearest) nearest = d;
    }
    distance[p] = Math.sqrt(nearest);
  }
  // Background: close to a backdrop colour and connected to the border (flood fill, 4-neighbours).
  const isBackground = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  const visit = (p: number) => {
    if (!isBackground[p] && distance[p]! < threshold) {
      isBackground[p] = 1;
      stack[top++] = p;
    }
  };
  for (const p of border) visit(p);
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % w;
    if (x > 0) visit(p - 1);
    if (x < w - 1) visit(p + 1);
    if (p >= w) visit(p - w);
    if (p < n - w) visit(p + w);
  }
  // Alpha: background transparent; with soft edges, its pixels near the threshold partly visible.
  const soft0 = threshold / 3;
  for (let p = 0; p < n; p++) {
    const alpha = isBackground[p] ? (soft ? Math.max(0, Math.min(1, (distance[p]! - soft0) / (threshold - soft0))) : 0) : 1;
    px[p * 4 + 3] = Math.round(px[p * 4 + 3]! * alpha);
  }
  // Specks: kept regions smaller than 1/2000 of the image (noise, dust) become transparent.
  const label = new Int32Array(n).fill(-1);
  const minimum = Math.max(16, n / 2000);
  let kept = 0;
  let [x0, y0, x1, y1] = [w, h, -1, -1];
  for (let start = 0; start < n; start++) {
    if (label[start] !== -1 || px[start * 4 + 3] === 0) continue;
    const members: number[] = [];
    label[start] = start;
    top = 0;
    stack[top++] = start;
    while (top > 0) {
      const p = stack[--top]!;
      members.push(p);
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q >= 0 && q < n && label[q] === -1 && px[q * 4 + 3] !== 0) {
          label[q] = start;
          stack[top++] = q;
        }
      }
    }
    if (members.length < minimum) {
      for (const p of members) px[p * 4 + 3] = 0;
      continue;
    }
    kept += members.length;
    for (const p of members) {
      const x = p % w;
      const y = (p - x) / w;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return {
    value: {
      data: px,
      background: background.map((c) => c.map(Math.round) as [number, number, number]),
      kept: kept / n,
      bbox: x1 < 0 ? null : [x0, y0, x1 - x0 + 1, y1 - y0 + 1],
    },
    transfer: [px.buffer as ArrayBuffer],
  };
};

const hex = (rgb: number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

export const cutoutModel: ModelTool = {
  service: 'lime-cutout',
  endpoint: '/remove',
  model: 'colour-model cutout (k-means backdrop, border flood fill, soft edges)',
  binary: () => undefined,
  load: async () => ({ version: 'lime colour-model cutout 1' }),
  async run(input, ctx, { memoryMb }): Promise<RunResult> {
    const format = choice(input, 'output_format', ['png', 'webp'] as const, 'png');
    const tolerance = int(input, 'tolerance', { fallback: 30, min: 1, max: 100 });
    const soft = bool(input, 'soft_edges', true);
    ctx.progress(0.1, 'Reading the image');
    const { data, width, height } = await rgbaInput(ctx, input);
    ctx.progress(0.3, 'Separating the subject from the backdrop');
    const cut = await runInThread(
      cutoutTask,
      { data, width, height, threshold: tolerance * 2, soft },
      { transfer: movable(data), signal: ctx.signal, resourceLimits: { maxOldGenerationSizeMb: memoryMb } },
    );
    ctx.progress(0.8, `Encoding the ${format.toUpperCase()}`);
    const raw = sharp(cut.data, { raw: { width, height, channels: 4 } });
    const bytes = format === 'webp' ? await raw.webp({ lossless: true }).toBuffer() : await raw.png().toBuffer();
    return {
      image: await ctx.storeMedia(bytes, `image/${format}`),
      width,
      height,
      background_colours: cut.background.map(hex),
      subject_bbox: cut.bbox,
      subject_share: Math.round(cut.kept * 1000) / 1000,
      method: 'colour-model cutout: no learned model; for subjects on a plain or simple backdrop',
    };
  },
};
