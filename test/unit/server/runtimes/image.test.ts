import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../../../../reference-app/server/runtimes/runtime';
import { dataUri, decodePng, mediaOf, pngUri, runKind } from './harness';

// Image outputs of the local-demo runtime: decoded and checked pixel by pixel, not just "a file".

const RED = [220, 30, 30] as const;
const WHITE = [255, 255, 255] as const;

describe('text2img', () => {
  it('draws a PNG of the requested size, labelled with its dimensions in the result', async () => {
    const run = await runKind('text2img', { prompt: 'a red fox in a snowy forest', width: 320, height: 192 });
    const png = await decodePng(mediaOf(run, run.result.image));
    expect([png.width, png.height]).toEqual([320, 192]);
    expect(run.result).toMatchObject({ width: 320, height: 192 });
    expect(run.progress.length).toBeGreaterThanOrEqual(5);
    expect(run.progress.map((p) => p.fraction)).toEqual([...run.progress.map((p) => p.fraction)].sort((a, b) => a - b));
    expect(run.progress.some((p) => /Denoising step \d+ of 30/.test(p.message ?? ''))).toBe(true);
  });

  it('gives the same bytes for the same prompt and seed, and different images otherwise', async () => {
    const base = { prompt: 'a lighthouse at dusk', width: 128, height: 128 };
    const bytes = async (input: Record<string, unknown>) => {
      const run = await runKind('text2img', input);
      return Buffer.from(mediaOf(run, run.result.image).bytes);
    };
    const first = await bytes({ ...base, seed: 7 });
    expect((await bytes({ ...base, seed: 7 })).equals(first)).toBe(true);
    expect((await bytes({ ...base, seed: 8 })).equals(first)).toBe(false);
    expect((await bytes({ ...base, seed: 7, prompt: 'a submarine at noon' })).equals(first)).toBe(false);
    // Without a seed the prompt decides, so a retry of the same input is reproducible too.
    expect((await bytes(base)).equals(await bytes(base))).toBe(true);
  });

  it('paints colour words of the prompt and keeps colours of the negative prompt out', async () => {
    const meanOf = async (input: Record<string, unknown>) => {
      const run = await runKind('text2img', { width: 64, height: 64, seed: 1, num_inference_steps: 500, ...input });
      const png = await decodePng(mediaOf(run, run.result.image));
      const sum = [0, 0, 0];
      png.scan((_x, _y, i) => [0, 1, 2].forEach((c) => (sum[c] += png.bitmap.data[i + c])));
      return sum.map((s) => s / (64 * 64));
    };
    const [r, g, b] = await meanOf({ prompt: 'blue ocean blue sky' });
    expect(b).toBeGreaterThan(r);
    expect(b).toBeGreaterThan(g);
    const [r2, , b2] = await meanOf({ prompt: 'blue ocean blue sky', negative_prompt: 'blue' });
    expect(b2 - r2).toBeLessThan(b - r);
  });

  it('refuses sizes out of range, naming the field', async () => {
    await expect(runKind('text2img', { prompt: 'x', width: 4096 })).rejects.toThrow(/width: must be between 64 and 2048/);
    await expect(runKind('text2img', { prompt: '  ' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'prompt: must not be blank',
    });
  });
});

describe('image inputs', () => {
  it('refuses a file that is not an image, naming the field and the type it got', async () => {
    const notImage = dataUri(new TextEncoder().encode('hello'), 'text/plain');
    const error = await runKind('upscaling', { image: notImage }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeError);
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect((error as Error).message).toMatch(/^image: is not an image .* got text\/plain$/);
  });

  it('refuses a PNG whose header declares more pixels than the limit, before inflating it', async () => {
    const small = await pngUri(4, 4, () => RED);
    const bytes = Buffer.from(small.split(',')[1], 'base64');
    bytes.writeUInt32BE(50_000, 16);
    bytes.writeUInt32BE(50_000, 20);
    await expect(runKind('upscaling', { image: dataUri(bytes, 'image/png') })).rejects.toThrow(/image: the image is 50000×50000/);
  });
});

describe('upscaling', () => {
  it('really resamples to scale × the input, keeping its picture', async () => {
    const image = await pngUri(40, 30, (x) => (x < 20 ? RED : WHITE));
    const run = await runKind('upscaling', { image, scale: 2 });
    const png = await decodePng(mediaOf(run, run.result.image));
    expect([png.width, png.height]).toEqual([80, 60]);
    const at = (x: number, y: number) => [...png.bitmap.data.subarray((y * 80 + x) * 4, (y * 80 + x) * 4 + 3)];
    expect(at(10, 30)[1]).toBeLessThan(80); // left half still red
    expect(at(70, 30)).toEqual([255, 255, 255]); // right half still white
  });

  it('resamples tall images strip by strip without seams between the strips', async () => {
    const image = await pngUri(10, 120, (_x, y) => [y * 2, y * 2, y * 2]);
    const run = await runKind('upscaling', { image, scale: 2 });
    const png = await decodePng(mediaOf(run, run.result.image));
    expect([png.width, png.height]).toEqual([20, 240]);
    const column = Array.from({ length: 240 }, (_, y) => png.bitmap.data[(y * 20 + 10) * 4]);
    // A smooth ramp stays a smooth ramp, also across the strip boundaries (rows 96 and 192).
    for (let y = 4; y < 236; y++) expect(Math.abs(column[y + 1] - column[y])).toBeLessThanOrEqual(2);
    expect(column[0]).toBeLessThan(4);
    expect(column[239]).toBeGreaterThan(234);
  });

  it('accepts only 2 or 4', async () => {
    await expect(runKind('upscaling', { image: await pngUri(8, 8, () => RED), scale: 3 })).rejects.toThrow('scale: must be 2 or 4');
  });
});

describe('img2img', () => {
  it('applies the edits the prompt names, to the input pixels', async () => {
    const image = await pngUri(32, 32, (x, y) => [x * 8, y * 8, 128]);
    const run = await runKind('img2img', { image, prompt: 'make it black and white, mirrored', strength: 1 });
    expect(run.result.applied).toEqual(['greyscale', 'mirror']);
    const png = await decodePng(mediaOf(run, run.result.image));
    expect([png.width, png.height]).toEqual([32, 32]);
    png.scan((_x, _y, i) => {
      const [r, g, b] = png.bitmap.data.subarray(i, i + 3);
      expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThanOrEqual(1);
    });
    // Mirrored: the left column now has the input's right-hand (brighter red) values.
    const left = png.bitmap.data[(16 * 32 + 0) * 4];
    const right = png.bitmap.data[(16 * 32 + 31) * 4];
    expect(left).toBeGreaterThan(right);
  });

  it('tints towards a colour the prompt names', async () => {
    const image = await pngUri(16, 16, () => [128, 128, 128]);
    const run = await runKind('img2img', { image, prompt: 'turn it green', strength: 1 });
    expect(run.result.applied).toEqual([expect.stringMatching(/^tint #/)]);
    const png = await decodePng(mediaOf(run, run.result.image));
    const [r, g, b] = png.bitmap.data.subarray(0, 3);
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
  });
});

describe('background-removal', () => {
  it('makes the border-connected background transparent and keeps the subject', async () => {
    const image = await pngUri(40, 40, (x, y) => (x >= 10 && x < 30 && y >= 10 && y < 30 ? RED : WHITE));
    const run = await runKind('background-removal', { image });
    const png = await decodePng(mediaOf(run, run.result.image));
    const alpha = (x: number, y: number) => png.bitmap.data[(y * 40 + x) * 4 + 3];
    expect(alpha(0, 0)).toBe(0);
    expect(alpha(5, 35)).toBe(0);
    expect(alpha(20, 20)).toBe(255);
    expect(run.result.background_colour).toBe('#ffffff');
    expect(run.result.foreground_fraction).toBe(0.25);
  });

  it('keeps a background-coloured area enclosed by the subject (it is not connected to the border)', async () => {
    const ring = (x: number, y: number) => x >= 8 && x < 32 && y >= 8 && y < 32 && !(x >= 16 && x < 24 && y >= 16 && y < 24);
    const run = await runKind('background-removal', { image: await pngUri(40, 40, (x, y) => (ring(x, y) ? RED : WHITE)) });
    const png = await decodePng(mediaOf(run, run.result.image));
    expect(png.bitmap.data[(20 * 40 + 20) * 4 + 3]).toBe(255);
  });
});

describe('face-swap', () => {
  it('pastes the centre of the source into the centre of the target and leaves the rest', async () => {
    const source_image = await pngUri(50, 50, () => RED);
    const target_image = await pngUri(100, 100, () => WHITE);
    const run = await runKind('face-swap', { source_image, target_image, enhance: false });
    const png = await decodePng(mediaOf(run, run.result.image));
    const px = (x: number, y: number) => [...png.bitmap.data.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3)];
    expect(px(50, 50)).toEqual([...RED]);
    expect(px(2, 2)).toEqual([...WHITE]);
    expect(run.result.region).toEqual({ x: 30, y: 30, width: 40, height: 40 });
  });
});
