import { Jimp, loadFont } from 'jimp';
import { SANS_32_WHITE } from 'jimp/fonts';
import { decodeWav } from '../runtimes/local/audio';

// Cover pictures of examples whose output is not a picture (speech, music, text, vectors, a
// mesh): the output itself, drawn: the waveform of the audio, or the opening words of the
// text. Catalogue cards and service headers show them instead of a name's initials.

export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 400;

type Image = InstanceType<typeof Jimp>;

/** The dark green backdrop of every drawn cover, lighter towards the top left. */
function backdrop(): Image {
  const image = new Jimp({ width: COVER_WIDTH, height: COVER_HEIGHT, color: 0x000000ff });
  image.scan(0, 0, COVER_WIDTH, COVER_HEIGHT, (x, y, idx) => {
    const shade = 1 - (x / COVER_WIDTH + y / COVER_HEIGHT) / 3;
    image.bitmap.data[idx] = Math.round(18 * shade);
    image.bitmap.data[idx + 1] = Math.round(64 * shade);
    image.bitmap.data[idx + 2] = Math.round(40 * shade);
  });
  return image;
}

/** Mono samples of a WAV as -1..1, read by the local runtime's decoder; [] for a file that is not one. */
export function wavSamples(wav: Uint8Array): Float32Array {
  try {
    return decodeWav('audio', wav, 'audio/wav').samples;
  } catch {
    return new Float32Array();
  }
}

/** The audio's waveform: one lime bar per column, as tall as the loudest sample under it. */
export async function waveformCover(wav: Uint8Array): Promise<Uint8Array> {
  const image = backdrop();
  const samples = wavSamples(wav);
  const columns = COVER_WIDTH - 80;
  const middle = COVER_HEIGHT / 2;
  let loudest = 1e-6;
  const peaks = Array.from({ length: columns }, (_, c) => {
    let peak = 0;
    const from = Math.floor((c * samples.length) / columns);
    const to = Math.floor(((c + 1) * samples.length) / columns);
    for (let i = from; i < to; i++) peak = Math.max(peak, Math.abs(samples[i]!));
    loudest = Math.max(loudest, peak);
    return peak;
  });
  peaks.forEach((peak, c) => {
    const half = Math.max(1, Math.round((peak / loudest) * (middle - 60)));
    if (c % 3 === 2) return; // gaps between bars
    image.scan(40 + c, middle - half, 1, half * 2, (_x, _y, idx) => {
      image.bitmap.data[idx] = 163;
      image.bitmap.data[idx + 1] = 230;
      image.bitmap.data[idx + 2] = 53;
    });
  });
  return new Uint8Array(await image.getBuffer('image/png'));
}

let font: ReturnType<typeof loadFont> | undefined;

/** The text's opening words, as they would be read on the page. */
export async function textCover(text: string): Promise<Uint8Array> {
  const image = backdrop();
  font ??= loadFont(SANS_32_WHITE);
  // The bitmap font has ASCII only: typographic quotes and dashes become theirs, the rest goes.
  const words = text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/[^\x20-\x7e\s]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const shown = words.length > 160 ? `${words.slice(0, 157).replace(/\s\S*$/, '')}...` : words;
  image.print({ font: await font, x: 40, y: 40, text: shown, maxWidth: COVER_WIDTH - 80, maxHeight: COVER_HEIGHT - 80 });
  return new Uint8Array(await image.getBuffer('image/png'));
}
