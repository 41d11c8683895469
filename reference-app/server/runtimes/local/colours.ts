// Colours for the demo: the words of a prompt that name a colour, and the nearest name for a
// colour found in an image (captioning). One table serves both directions.

export type Rgb = readonly [number, number, number];

export const NAMED_COLOURS: Readonly<Record<string, Rgb>> = {
  black: [20, 20, 24],
  white: [240, 240, 236],
  grey: [128, 128, 128],
  red: [210, 40, 40],
  orange: [240, 140, 30],
  yellow: [240, 210, 40],
  green: [50, 160, 70],
  teal: [30, 140, 140],
  blue: [40, 90, 210],
  navy: [20, 30, 90],
  purple: [130, 60, 170],
  pink: [240, 130, 180],
  brown: [120, 75, 40],
  gold: [212, 175, 55],
  silver: [190, 195, 200],
  beige: [225, 210, 175],
};

// Words that suggest a colour without naming it.
const HINTS: Readonly<Record<string, keyof typeof NAMED_COLOURS>> = {
  gray: 'grey',
  sunset: 'orange',
  fire: 'red',
  sun: 'yellow',
  forest: 'green',
  grass: 'green',
  tree: 'green',
  ocean: 'blue',
  sea: 'blue',
  sky: 'blue',
  water: 'teal',
  night: 'navy',
  snow: 'white',
  cloud: 'white',
  rose: 'pink',
  violet: 'purple',
  wood: 'brown',
  desert: 'beige',
  sand: 'beige',
  metal: 'silver',
  shadow: 'black',
};

/** The colour a word names or suggests, if any. */
export function colourOfWord(word: string): Rgb | undefined {
  const key = word in NAMED_COLOURS ? word : HINTS[word];
  return key ? NAMED_COLOURS[key] : undefined;
}

/** The name of the nearest colour in the table. */
export function nameOfColour(rgb: Rgb): string {
  let best = 'grey';
  let bestDistance = Infinity;
  for (const [name, [r, g, b]] of Object.entries(NAMED_COLOURS)) {
    const d = (rgb[0] - r) ** 2 + (rgb[1] - g) ** 2 + (rgb[2] - b) ** 2;
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  const hue = ((h % 1) + 1) % 1;
  const k = (n: number) => (n + hue * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

export const toHex = ([r, g, b]: Rgb) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** Relative luminance in 0..255 (Rec. 709 weights). */
export const luminance = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
