import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { movable, runInThread, type ThreadTask } from '../../http/dataThread';
import type { RunResult } from '../runtime';
import { int, invalid } from '../local/inputs';
import type { ModelTool } from './model';
import { rgbaInput } from './rgba';

// lime-vision: finds people's faces (frontal and in profile) and their eyes in a photo, with boxes
// and labels, using OpenCV's trained Viola–Jones Haar cascades (Debian's opencv-data, 1.3 MB;
// Intel's BSD-style licence), evaluated here the way OpenCV's CascadeClassifier does (integral
// images, variance-normalised features, a shrinking image pyramid, neighbour grouping). Why not
// OpenCV itself or a neural detector: python3-opencv pulls 460 MB of Debian packages into CI and
// every server, and the learned detectors on npm need TensorFlow.js plus weights of 10–200 MB;
// the cascades are a few hundred kB each and run in a worker thread, about 1 s of CPU for a
// 512×512 photo (profiles twice that: the image is searched mirrored too). Their limits: upright
// faces of at least 24 px in the (≤ 1024 px) working image, frontal or turned about 90°; tilted
// heads, people, bodies and other objects are not detected. (OpenCV's cat-face cascade is not
// offered: it found no face in the cat photo it was tried on.)

/** The cascades this service runs: file, label, and whether to look only inside a found face. */
export const CASCADES = [
  { label: 'face', file: 'haarcascade_frontalface_alt2.xml' },
  { label: 'profile_face', file: 'haarcascade_profileface.xml', mirrored: true },
  { label: 'eye', file: 'haarcascade_eye.xml', inFace: true },
] as const;
export type Target = (typeof CASCADES)[number]['label'];
export const TARGETS = CASCADES.map((c) => c.label);
export const DEFAULT_TARGETS: Target[] = ['face', 'eye'];
/** Detection runs on the image scaled to at most this many pixels on its longer side. */
export const WORK_SIDE = 1024;

/** A cascade as flat typed arrays, cheap to copy to a thread and quick to walk. */
export interface Cascade {
  width: number;
  height: number;
  /** Per stage: its threshold, and [first weak classifier, count]. */
  stageThresholds: Float64Array;
  stageWeak: Int32Array;
  /** Per weak classifier: [first node, first leaf]. */
  weak: Int32Array;
  /** Per node: [left, right, feature] (a child ≤ 0 is leaf −child) and its threshold. */
  nodes: Int32Array;
  nodeThresholds: Float64Array;
  leaves: Float64Array;
  /** Per feature: [x, y, w, h] × 3 and their 3 weights (an unused rectangle weighs 0). */
  rects: Int32Array;
  weights: Float64Array;
}

/** An OpenCV cascade XML (the "opencv-cascade-classifier" format, upright Haar features only) as a Cascade. */
export function parseCascade(xml: string, name = 'cascade'): Cascade {
  const number = (tag: string) => Number(new RegExp(`<${tag}>\\s*([^<]+)</${tag}>`).exec(xml)?.[1]);
  if (!/<featureType>HAAR<\/featureType>/.test(xml)) throw new Error(`${name} is not a Haar cascade`);
  if (/<tilted>1<\/tilted>/.test(xml)) throw new Error(`${name} uses tilted features, which are not evaluated here`);
  const nums = (text: string) => text.trim().split(/\s+/).map(Number);
  const stageThresholds: number[] = [];
  const stageWeak: number[] = [];
  const weak: number[] = [];
  const nodes: number[] = [];
  const nodeThresholds: number[] = [];
  const leaves: number[] = [];
  for (const stage of xml.matchAll(/<stageThreshold>([^<]+)<\/stageThreshold>\s*<weakClassifiers>([\s\S]*?)<\/weakClassifiers>/g)) {
    const first = weak.length / 2;
    for (const tree of stage[2]!.matchAll(/<internalNodes>([^<]+)<\/internalNodes>\s*<leafValues>([^<]+)<\/leafValues>/g)) {
      weak.push(nodes.length / 3, leaves.length);
      const values = nums(tree[1]!);
      for (let i = 0; i + 3 < values.length; i += 4) {
        nodes.push(values[i]!, values[i + 1]!, values[i + 2]!);
        nodeThresholds.push(values[i + 3]!);
      }
      leaves.push(...nums(tree[2]!));
    }
    // OpenCV lowers each stage's threshold by 1e-5 when it reads it (rounding in the training's favour).
    stageThresholds.push(Number(stage[1]) - 1e-5);
    stageWeak.push(first, weak.length / 2 - first);
  }
  const rects: number[] = [];
  const weights: number[] = [];
  const section = /<features>([\s\S]*)<\/features>/.exec(xml)?.[1] ?? '';
  for (const feature of section.matchAll(/<rects>([\s\S]*?)<\/rects>/g)) {
    const found = [...feature[1]!.matchAll(/<_>\s*([^<]+?)\s*<\/_>/g)].map((r) => nums(r[1]!));
    for (let i = 0; i < 3; i++) {
      const [x = 0, y = 0, w = 0, h = 0, weight = 0] = found[i] ?? [];
      rects.push(x, y, w, h);
      weights.push(weight);
    }
  }
  const width = number('width');
  const height = number('height');
  if (!(width > 0 && height > 0 && stageThresholds.length > 0 && weights.length > 0)) throw new Error(`${name} has no stages or features`);
  return {
    width,
    height,
    stageThresholds: Float64Array.from(stageThresholds),
    stageWeak: Int32Array.from(stageWeak),
    weak: Int32Array.from(weak),
    nodes: Int32Array.from(nodes),
    nodeThresholds: Float64Array.from(nodeThresholds),
    leaves: Float64Array.from(leaves),
    rects: Int32Array.from(rects),
    weights: Float64Array.from(weights),
  };
}

interface DetectInput {
  data: Uint8Array;
  width: number;
  height: number;
  cascades: Array<{ label: string; cascade: Cascade; mirrored?: boolean; inFace?: boolean }>;
  minNeighbors: number;
  minSize: number;
  workSide: number;
}
export interface Detection {
  label: string;
  /** [x, y, width, height] in the image's pixels. */
  bbox: [number, number, number, number];
  /** How many overlapping windows agreed (OpenCV's neighbours): more is surer. */
  score: number;
}

/**
 * Self-contained (it runs as source text in its own thread: runInThread). Finds each cascade's
 * objects in the image and draws their boxes onto it (the RGBA data, moved back).
 */
export const detectTask: ThreadTask<DetectInput, { detections: Detection[]; data: Uint8Array }> = async (input) => {
  const { width: W, height: H, data, minNeighbors } = input;
  // Greyscale as OpenCV weighs it, then shrunk (area average) to the working size.
  const shrink = Math.max(1, Math.max(W, H) / input.workSide);
  const gw = Math.max(1, Math.round(W / shrink));
  const gh = Math.max(1, Math.round(H / shrink));
  const gray = new Float32Array(gw * gh);
  const count = new Float32Array(gw * gh);
  for (let y = 0; y < H; y++) {
    const row = Math.min(gh - 1, Math.floor(y / shrink)) * gw;
    for (let x = 0; x < W; x++) {
      const p = (y * W + x) * 4;
      const g = row + Math.min(gw - 1, Math.floor(x / shrink));
      gray[g]! += 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
      count[g]!++;
    }
  }
  for (let i = 0; i < gray.length; i++) gray[i] = Math.round(gray[i]! / count[i]!);

  /** Bilinear resize with pixel centres aligned (OpenCV's INTER_LINEAR), rounded to 8 bits. */
  const resize = (src: Float32Array, sw: number, sh: number, dw: number, dh: number) => {
    const out = new Float32Array(dw * dh);
    const fx = sw / dw;
    const fy = sh / dh;
    for (let y = 0; y < dh; y++) {
      const sy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
      const y0 = Math.floor(sy);
      const y1 = Math.min(sh - 1, y0 + 1);
      const ty = sy - y0;
      for (let x = 0; x < dw; x++) {
        const sx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
        const x0 = Math.floor(sx);
        const x1 = Math.min(sw - 1, x0 + 1);
        const tx = sx - x0;
        const top = src[y0 * sw + x0]! * (1 - tx) + src[y0 * sw + x1]! * tx;
        const bottom = src[y1 * sw + x0]! * (1 - tx) + src[y1 * sw + x1]! * tx;
        out[y * dw + x] = Math.round(top * (1 - ty) + bottom * ty);
      }
    }
    return out;
  };

  /** Windows the cascade accepts in `img` (w×h), over a pyramid of scale 1.1, as [x, y, w, h]. */
  const scan = (img: Float32Array, w: number, h: number, c: Cascade, minSize: number) => {
    const found: number[][] = [];
    const { stageThresholds, stageWeak, weak, nodes, nodeThresholds, leaves, rects, weights } = c;
    const area = (c.width - 2) * (c.height - 2);
    const nRects = rects.length / 4;
    for (let factor = 1; ; factor *= 1.1) {
      const sw = Math.round(w / factor);
      const sh = Math.round(h / factor);
      if (sw <= c.width || sh <= c.height) break;
      const winW = Math.round(c.width * factor);
      const winH = Math.round(c.height * factor);
      if (winW < minSize || winH < minSize) continue;
      const s = factor === 1 ? img : resize(img, w, h, sw, sh);
      const W1 = sw + 1;
      // Integral images: sums fit 32 bits (255 × 1024 × 1024), squares do not.
      const sum = new Int32Array(W1 * (sh + 1));
      const sq = new Float64Array(W1 * (sh + 1));
      for (let y = 0; y < sh; y++) {
        let rs = 0;
        let rq = 0;
        for (let x = 0; x < sw; x++) {
          const v = s[y * sw + x]!;
          rs += v;
          rq += v * v;
          sum[(y + 1) * W1 + x + 1] = sum[y * W1 + x + 1]! + rs;
          sq[(y + 1) * W1 + x + 1] = sq[y * W1 + x + 1]! + rq;
        }
      }
      // Each rectangle's four corners as offsets from a window's top-left corner, for this width.
      const corners = new Int32Array(nRects * 4);
      for (let r = 0; r < nRects; r++) {
        const [x, y, rw, rh] = [rects[r * 4]!, rects[r * 4 + 1]!, rects[r * 4 + 2]!, rects[r * 4 + 3]!];
        corners.set([y * W1 + x, y * W1 + x + rw, (y + rh) * W1 + x, (y + rh) * W1 + x + rw], r * 4);
      }
      const n0 = W1 + 1;
      const n1 = W1 + c.width - 1;
      const n2 = (c.height - 1) * W1 + 1;
      const n3 = (c.height - 1) * W1 + c.width - 1;
      const step = factor > 2 ? 1 : 2;
      for (let y = 0; y + c.height < sh; y += step) {
        for (let x = 0; x + c.width < sw; x += step) {
          const b = y * W1 + x;
          // Variance normalisation over the window less a 1-pixel rim; flat windows are skipped.
          const ws = sum[b + n3]! - sum[b + n1]! - sum[b + n2]! + sum[b + n0]!;
          let nf = area * (sq[b + n3]! - sq[b + n1]! - sq[b + n2]! + sq[b + n0]!) - ws * ws;
          if (nf <= 0) continue;
          nf = Math.sqrt(nf);
          if (area / nf >= 0.1) continue;
          let passed = true;
          for (let st = 0; st < stageThresholds.length; st++) {
            let total = 0;
            const end = stageWeak[st * 2]! + stageWeak[st * 2 + 1]!;
            for (let k = stageWeak[st * 2]!; k < end; k++) {
              const first = weak[k * 2]!;
              let idx = 0;
              do {
                const n = first + idx;
                const f = nodes[n * 3 + 2]! * 3;
                let value = 0;
                for (let r = f; r < f + 3; r++) {
                  const weight = weights[r]!;
                  if (weight === 0) continue;
                  value +=
                    weight *
                    (sum[b + corners[r * 4 + 3]!]! -
                      sum[b + corners[r * 4 + 1]!]! -
                      sum[b + corners[r * 4 + 2]!]! +
                      sum[b + corners[r * 4]!]!);
                }
                idx = value < nodeThresholds[n]! * nf ? nodes[n * 3]! : nodes[n * 3 + 1]!;
              } while (idx > 0);
              total += leaves[weak[k * 2 + 1]! - idx]!;
            }
            if (total < stageThresholds[st]!) {
              passed = false;
              break;
            }
          }
          if (passed) found.push([Math.round(x * factor), Math.round(y * factor), winW, winH]);
        }
      }
    }
    return found;
  };

  /** OpenCV's groupRectangles: clusters of similar boxes averaged, kept when more than `min` agree. */
  const group = (rects: number[][], min: number) => {
    const parent = rects.map((_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const [a, b] = [rects[i]!, rects[j]!];
        const delta = 0.2 * (Math.min(a[2]!, b[2]!) + Math.min(a[3]!, b[3]!)) * 0.5;
        if (
          Math.abs(a[0]! - b[0]!) <= delta &&
          Math.abs(a[1]! - b[1]!) <= delta &&
          Math.abs(a[0]! + a[2]! - b[0]! - b[2]!) <= delta &&
          Math.abs(a[1]! + a[3]! - b[1]! - b[3]!) <= delta
        )
          parent[root(i)] = root(j);
      }
    const clusters = new Map<number, { sum: number[]; n: number }>();
    rects.forEach((r, i) => {
      const c = clusters.get(root(i)) ?? { sum: [0, 0, 0, 0], n: 0 };
      r.forEach((v, k) => (c.sum[k]! += v));
      c.n++;
      clusters.set(root(i), c);
    });
    const avg = [...clusters.values()].filter((c) => c.n > min).map((c) => ({ r: c.sum.map((v) => Math.round(v / c.n)), n: c.n }));
    // A small cluster inside a bigger, better-supported one is dropped.
    return avg.filter(
      (a) =>
        !avg.some((b) => {
          if (a === b) return false;
          const dx = Math.round(b.r[2]! * 0.2);
          const dy = Math.round(b.r[3]! * 0.2);
          return (
            a.r[0]! >= b.r[0]! - dx &&
            a.r[1]! >= b.r[1]! - dy &&
            a.r[0]! + a.r[2]! <= b.r[0]! + b.r[2]! + dx &&
            a.r[1]! + a.r[3]! <= b.r[1]! + b.r[3]! + dy &&
            (b.n > Math.max(3, a.n) || a.n < 3)
          );
        }),
    );
  };

  const mirror = (img: Float32Array, w: number, h: number) => {
    const out = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = img[y * w + w - 1 - x]!;
    return out;
  };

  const detections: Detection[] = [];
  const toImage = (r: number[], label: string, score: number) => {
    const box = r.map((v) => Math.round(v * shrink)) as [number, number, number, number];
    box[2] = Math.min(box[2], W - box[0]);
    box[3] = Math.min(box[3], H - box[1]);
    detections.push({ label, bbox: box, score });
  };
  const faces: number[][] = [];
  for (const { label, cascade, mirrored, inFace } of input.cascades) {
    if (inFace) continue;
    const found = group(scan(gray, gw, gh, cascade, input.minSize), minNeighbors);
    if (mirrored) {
      const flipped = group(scan(mirror(gray, gw, gh), gw, gh, cascade, input.minSize), minNeighbors);
      for (const f of flipped) found.push({ r: [gw - f.r[0]! - f.r[2]!, f.r[1]!, f.r[2]!, f.r[3]!], n: f.n });
    }
    for (const f of found) {
      // A profile that is a frontal face found already is the same face.
      const same =
        label === 'profile_face' && faces.some((g) => Math.abs(g[0]! - f.r[0]!) < g[2]! / 2 && Math.abs(g[1]! - f.r[1]!) < g[3]! / 2);
      if (same) continue;
      if (label === 'face' || label === 'profile_face') faces.push(f.r);
      toImage(f.r, label, f.n);
    }
  }
  // Eyes: searched in the upper 60 % of each face only, as the cascade was trained to be used.
  for (const { label, cascade, inFace } of input.cascades) {
    if (!inFace) continue;
    for (const [fx, fy, fw, fh] of faces) {
      const rw = fw!;
      const rh = Math.round(fh! * 0.6);
      const roi = new Float32Array(rw * rh);
      for (let y = 0; y < rh; y++) for (let x = 0; x < rw; x++) roi[y * rw + x] = gray[(fy! + y) * gw + fx! + x] ?? 0;
      for (const e of group(scan(roi, rw, rh, cascade, Math.max(cascade.width, Math.round(fw! / 8))), minNeighbors))
        toImage([e.r[0]! + fx!, e.r[1]! + fy!, e.r[2]!, e.r[3]!], label, e.n);
    }
  }
  // Boxes drawn onto the picture: faces lime, profiles amber, eyes sky blue.
  const colours: Record<string, number[]> = { face: [132, 204, 22], profile_face: [245, 158, 11], eye: [56, 189, 248] };
  const thick = Math.max(2, Math.round(Math.max(W, H) / 300));
  for (const { label, bbox } of detections) {
    const [bx, by, bw, bh] = bbox;
    const colour = colours[label] ?? [255, 0, 0];
    const paint = (x: number, y: number) => {
      if (x < 0 || y < 0 || x >= W || y >= H) return;
      const p = (y * W + x) * 4;
      data[p] = colour[0]!;
      data[p + 1] = colour[1]!;
      data[p + 2] = colour[2]!;
      data[p + 3] = 255;
    };
    for (let t = 0; t < thick; t++) {
      for (let x = bx; x < bx + bw; x++) {
        paint(x, by + t);
        paint(x, by + bh - 1 - t);
      }
      for (let y = by; y < by + bh; y++) {
        paint(bx + t, y);
        paint(bx + bw - 1 - t, y);
      }
    }
  }
  return { value: { detections, data }, transfer: [data.buffer as ArrayBuffer] };
};

/** Reads and parses the cascades in a thread of its own (2.3 MB of XML would hold the loop ~50 ms). */
const parseTask: ThreadTask<
  { files: Array<{ label: string; xml: string }> },
  Array<{ label: string; cascade: Cascade }>,
  { parseCascade: typeof parseCascade }
> = async ({ files }, _ask, { parseCascade: parse }) => ({ value: files.map(({ label, xml }) => ({ label, cascade: parse(xml, label) })) });

export const detectModel: ModelTool = {
  service: 'lime-vision',
  endpoint: '/detect',
  model: 'OpenCV Haar cascades: frontal faces, profiles, eyes (opencv-data)',
  binary: () => undefined,
  files: (config) => CASCADES.map((c) => path.join(config.cascades, c.file)),
  async load(_binary, { config, memoryMb }) {
    const files = await Promise.all(
      CASCADES.map(async (c) => ({ label: c.label, xml: await readFile(path.join(config.cascades, c.file), 'utf8') })),
    );
    const parsed = await runInThread(
      parseTask,
      { files },
      { helpers: { parseCascade }, resourceLimits: { maxOldGenerationSizeMb: memoryMb } },
    );
    return { version: 'OpenCV 4 Haar cascades', cascades: parsed };
  },
  async run(input, ctx, { loaded, memoryMb }): Promise<RunResult> {
    const given = input.targets ?? DEFAULT_TARGETS;
    if (!Array.isArray(given) || given.length === 0 || given.some((t) => !TARGETS.includes(t as Target))) {
      throw invalid('targets', `must be a non-empty array of ${TARGETS.map((t) => `"${t}"`).join(', ')}`);
    }
    const targets = new Set(given as Target[]);
    if (targets.has('eye') && !targets.has('face') && !targets.has('profile_face')) {
      throw invalid('targets', '"eye" is looked for inside faces: add "face" or "profile_face"');
    }
    const minNeighbors = int(input, 'min_neighbors', { fallback: 3, min: 1, max: 20 });
    const minSize = int(input, 'min_size', { fallback: 24, min: 20, max: 1024 });
    ctx.progress(0.1, 'Reading the image');
    const { data, width, height } = await rgbaInput(ctx, input);
    const all = loaded.cascades as Array<{ label: Target; cascade: Cascade }>;
    const cascades = CASCADES.filter((c) => targets.has(c.label)).map((c) => ({
      ...c,
      cascade: all.find((a) => a.label === c.label)!.cascade,
    }));
    ctx.progress(0.3, `Looking for ${[...targets].join(', ')}`);
    const found = await runInThread(
      detectTask,
      { data, width, height, cascades, minNeighbors, minSize, workSide: WORK_SIDE },
      { transfer: movable(data), signal: ctx.signal, resourceLimits: { maxOldGenerationSizeMb: memoryMb } },
    );
    ctx.progress(0.85, 'Drawing the boxes');
    const jpeg = await sharp(found.data, { raw: { width, height, channels: 4 } })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer();
    return {
      objects: found.detections,
      count: found.detections.length,
      width,
      height,
      image: await ctx.storeMedia(jpeg, 'image/jpeg'),
      engine: 'OpenCV Haar cascades (Viola–Jones), evaluated on this server',
    };
  },
};
