import { colourOfWord, hslToRgb, type Rgb } from './colours';
import { hash32, prng, wordsOf } from './hash';

// The procedural "model" behind text-to-image and text-to-video: each word of the prompt becomes
// a shape whose kind, place, size and colour come from the word and the seed; colour words tint
// the palette; the negative prompt removes words and colours. Pure functions over an RGBA buffer.

type ShapeKind = 'circle' | 'ring' | 'square' | 'triangle' | 'band';
const KINDS: ShapeKind[] = ['circle', 'ring', 'square', 'triangle', 'band'];
const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'and', 'with', 'to', 'for', 'by', 'is', 'very', 'from']);
const MAX_SHAPES = 24;

export interface Shape {
  word: string;
  kind: ShapeKind;
  /** Centre, as fractions of width and height. */
  x: number;
  y: number;
  /** Radius as a fraction of the shorter side. */
  size: number;
  colour: Rgb;
  alpha: number;
  /** Motion for animations: orbit radius (fraction of the shorter side) and phase. */
  orbit: number;
  phase: number;
}

export interface Scene {
  top: Rgb;
  bottom: Rgb;
  /** Direction of the background gradient, radians. */
  angle: number;
  shapes: Shape[];
  seed: number;
}

const shade = (c: Rgb, f: number): Rgb => [Math.round(c[0] * f), Math.round(c[1] * f), Math.round(c[2] * f)];
const near = (a: Rgb, b: Rgb) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < 90;

export function composeScene(prompt: string, negativePrompt: string, seed: number, guidance: number): Scene {
  const banned = new Set(wordsOf(negativePrompt));
  const bannedColours = [...banned].map(colourOfWord).filter((c): c is Rgb => c !== undefined);
  const words = wordsOf(prompt).filter((w) => !STOP_WORDS.has(w) && !banned.has(w));
  const random = prng(seed);
  const saturation = Math.min(1, 0.25 + guidance / 12);
  const baseHue = random();
  const named = words.map(colourOfWord).filter((c): c is Rgb => c !== undefined);
  const avoid = (c: Rgb): Rgb => (bannedColours.some((b) => near(b, c)) ? [255 - c[0], 255 - c[1], 255 - c[2]] : c);
  const top = avoid(named[0] ?? hslToRgb(baseHue, saturation, 0.25));
  const bottom = avoid(named[1] ? shade(named[1], 0.5) : hslToRgb(baseHue + 0.12, saturation, 0.55));
  const shapes = words
    .filter((w) => colourOfWord(w) === undefined || words.length === 1)
    .slice(0, MAX_SHAPES)
    .map((word, i): Shape => {
      const own = prng(hash32(word, seed, i));
      const colour =
        named.length > 0 && own() < 0.5
          ? named[Math.floor(own() * named.length)]
          : hslToRgb(baseHue + (own() - 0.5) * 0.5, saturation, 0.35 + own() * 0.4);
      return {
        word,
        kind: KINDS[hash32(word) % KINDS.length],
        x: 0.1 + own() * 0.8,
        y: 0.1 + own() * 0.8,
        size: 0.06 + own() * 0.22,
        colour: avoid(colour),
        alpha: 0.55 + own() * 0.4,
        orbit: 0.02 + own() * 0.12,
        phase: own() * Math.PI * 2,
      };
    });
  return { top, bottom, angle: random() * Math.PI * 2, shapes, seed };
}

function covers(kind: ShapeKind, dx: number, dy: number, r: number): boolean {
  switch (kind) {
    case 'circle':
      return dx * dx + dy * dy <= r * r;
    case 'ring': {
      const d = dx * dx + dy * dy;
      return d <= r * r && d >= r * r * 0.45;
    }
    case 'square':
      return Math.abs(dx) <= r && Math.abs(dy) <= r;
    case 'triangle':
      return dy <= r && dy >= -r && Math.abs(dx) <= (dy + r) / 2;
    case 'band':
      return Math.abs(dy) <= r * 0.18;
  }
}

export interface Frame {
  data: Uint8Array | Buffer;
  width: number;
  height: number;
}

/**
 * Paints rows [rowStart, rowEnd) of the scene at animation time `time` (0..1 for one loop).
 * `noise` is the amplitude of the seeded grain (fewer "denoising steps", more grain).
 */
export function paintRows(scene: Scene, frame: Frame, rowStart: number, rowEnd: number, time = 0, noise = 0): void {
  const { data, width, height } = frame;
  const cos = Math.cos(scene.angle);
  const sin = Math.sin(scene.angle);
  const span = Math.abs(cos) * width + Math.abs(sin) * height;
  const offset = Math.min(0, cos * width) + Math.min(0, sin * height);
  for (let y = rowStart; y < rowEnd; y++) {
    const grain = prng(hash32(scene.seed, 'grain', y));
    for (let x = 0; x < width; x++) {
      const t = (x * cos + y * sin - offset) / span;
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) data[i + c] = scene.top[c] + (scene.bottom[c] - scene.top[c]) * t;
      data[i + 3] = 255;
    }
    const minSide = Math.min(width, height);
    for (const shape of scene.shapes) {
      const angle = shape.phase + time * Math.PI * 2;
      const cx = shape.x * width + Math.cos(angle) * shape.orbit * minSide;
      const cy = shape.y * height + Math.sin(angle) * shape.orbit * minSide;
      const r = shape.size * minSide;
      const dy = y - cy;
      if (dy < -r || dy > r) continue;
      const x0 = shape.kind === 'band' ? 0 : Math.max(0, Math.floor(cx - r));
      const x1 = shape.kind === 'band' ? width - 1 : Math.min(width - 1, Math.ceil(cx + r));
      for (let x = x0; x <= x1; x++) {
        if (!covers(shape.kind, x - cx, dy, r)) continue;
        const i = (y * width + x) * 4;
        for (let c = 0; c < 3; c++) data[i + c] = data[i + c] + (shape.colour[c] - data[i + c]) * shape.alpha;
      }
    }
    if (noise > 0) {
      for (let x = 0; x < width; x++) {
        const n = (grain() - 0.5) * noise;
        const i = (y * width + x) * 4;
        for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, data[i + c] + n));
      }
    }
  }
}
