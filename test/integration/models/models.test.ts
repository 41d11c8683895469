import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OCR_EXAMPLE } from '../../../reference-app/server/seed/localModels';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { download, runner, runService, shapeImage, textImage, wavStats } from './fixtures';

// The seeded services that run a real model on this server (runtimes/models, docs/architecture.md
// "Local models"), run through the job API on inputs made here, their results checked for content:
// the OCR reads the rendered words back, the voice speaks for as long as the text takes.

let server: PlatformTestServer;
let token: string;
beforeAll(async () => {
  server = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0' } });
  token = (await runner(server, 'models')).token;
}, 60_000);
afterAll(() => server?.close());

type Words = {
  text: string;
  lines: Array<{ text: string; bbox: number[]; words: Array<{ text: string; bbox: number[]; confidence: number }> }>;
};

describe('lime-ocr (Tesseract)', () => {
  it('reads rendered words back, with a box per word inside the image, labelled runtime "local"', async () => {
    const job = await runService(server, token, 'lime-ocr', '/read', { image: await textImage('Limes are green') });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as unknown as Words & { width: number; height: number };
    expect(result.text.trim()).toBe('Limes are green');
    const words = result.lines.flatMap((l) => l.words);
    expect(words.map((w) => w.text)).toEqual(['Limes', 'are', 'green']);
    for (const { bbox, confidence } of words) {
      const [x, y, w, h] = bbox;
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(result.width);
      expect(y + h).toBeLessThanOrEqual(result.height);
      expect(confidence).toBeGreaterThan(60);
    }
    // Left to right: each word starts after the previous one.
    expect(words[1]!.bbox[0]).toBeGreaterThan(words[0]!.bbox[0] + words[0]!.bbox[2]);
  }, 30_000);

  it('answers its example input exactly as the endpoint example shows', async () => {
    const job = await runService(server, token, 'lime-ocr', '/read', OCR_EXAMPLE.input!);
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.result).toEqual(OCR_EXAMPLE.result);
  }, 30_000);

  it('refuses a language that is not installed and a file that is no image, naming the field', async () => {
    const french = await runService(server, token, 'lime-ocr', '/read', { image: await textImage('Bonjour'), languages: ['xx'] });
    expect(french.status).toBe('FAILED');
    expect(french.error?.message).toMatch(/^languages: xx is not installed here; installed: eng/);
    const text = await runService(server, token, 'lime-ocr', '/read', {
      image: `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`,
    });
    expect(text.status).toBe('FAILED');
    expect(text.error?.message).toMatch(/^image: /);
    // A PNG whose header passes and whose data is cut short.
    const png = Buffer.from((await textImage('Cut')).split(',')[1]!, 'base64');
    const cut = await runService(server, token, 'lime-ocr', '/read', {
      image: `data:image/png;base64,${png.subarray(0, 200).toString('base64')}`,
    });
    expect(cut.status).toBe('FAILED');
    expect(cut.error?.message).toBe('image: could not be decoded as PNG');
  }, 30_000);
});

describe('lime-voice (eSpeak NG)', () => {
  it('speaks the text: a WAV with a true length, mostly voiced, longer for longer text', async () => {
    const short = await runService(server, token, 'lime-voice', '/speak', { text: 'Limes are green.' });
    expect(short.status, JSON.stringify(short.error)).toBe('FINISHED');
    expect(short.runtime).toBe('local');
    const result = short.result as { audio: { url: string; content_type: string }; duration_s: number; language: string; voice: string };
    expect(result).toMatchObject({ language: 'en-us', voice: 'female-1', audio: { content_type: 'audio/wav' } });
    const wav = await download(server, token, result.audio.url);
    const stats = wavStats(wav);
    expect(stats.sampleRate).toBe(22050);
    expect(stats.declaredBytes).toBe(wav.length - 44);
    expect(stats.seconds).toBeCloseTo(result.duration_s, 1);
    expect(stats.seconds).toBeGreaterThan(0.7);
    expect(stats.seconds).toBeLessThan(3);
    expect(stats.rms).toBeGreaterThan(0.03);
    expect(stats.voicedShare).toBeGreaterThan(0.5);

    const long = await runService(server, token, 'lime-voice', '/speak', {
      text: 'Limes are green. Lemons are yellow, and both are sour.',
      language: 'de',
      voice: 'male-2',
      speed: 1.5,
    });
    expect(long.status, JSON.stringify(long.error)).toBe('FINISHED');
    const longStats = wavStats(await download(server, token, (long.result as typeof result).audio.url));
    expect(longStats.seconds).toBeGreaterThan(stats.seconds);
  }, 30_000);
});

describe('lime-cutout (colour model)', () => {
  it('makes the backdrop transparent and keeps the shape opaque, its box where it was drawn', async () => {
    const job = await runService(server, token, 'lime-cutout', '/remove', { image: await shapeImage(240) });
    expect(job.status, JSON.stringify(job.error)).toBe('FINISHED');
    expect(job.runtime).toBe('local');
    const result = job.result as { image: { url: string; content_type: string }; subject_bbox: number[]; background_colours: string[] };
    expect(result.image.content_type).toBe('image/png');
    expect(result.background_colours).toEqual(['#e8eef4']);
    // The circle of radius 60 around (120, 120): its box is 121 pixels wide, from 60 to 180.
    const [x, y, w, h] = result.subject_bbox;
    for (const [value, expected] of [
      [x, 60],
      [y, 60],
      [w, 121],
      [h, 121],
    ] as const)
      expect(Math.abs(value! - expected)).toBeLessThanOrEqual(2);
    const { data, info } = await sharp(await download(server, token, result.image.url))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const alpha = (px: number, py: number) => data[(py * info.width + px) * 4 + 3];
    for (const [cx, cy] of [
      [0, 0],
      [239, 0],
      [0, 239],
      [239, 239],
      [120, 20],
      [20, 120],
    ])
      expect(alpha(cx!, cy!)).toBe(0);
    for (const [cx, cy] of [
      [120, 120],
      [90, 120],
      [150, 120],
      [120, 80],
    ])
      expect(alpha(cx!, cy!)).toBe(255);
    // The shape's colour is kept as it was.
    expect([...data.subarray((120 * 240 + 120) * 4, (120 * 240 + 120) * 4 + 3)]).toEqual([0xd2, 0x3c, 0x28]);
  }, 30_000);
});

describe('a missing model', () => {
  it('falls back to the local demo runtime, labelled so, never a crash', async () => {
    const without = await startPlatformServer({
      env: { LOCAL_DEMO_STEP_MS: '0', TESSERACT_PATH: '/nonexistent/tesseract', ESPEAK_NG_PATH: 'no-such-espeak-ng' },
    });
    try {
      const { token: own } = await runner(without, 'models-missing');
      const ocr = await runService(without, own, 'lime-ocr', '/read', { image: await textImage('Limes') });
      expect(ocr).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
      expect(JSON.stringify(ocr.result)).toMatch(/local-demo runtime/);
      const voice = await runService(without, own, 'lime-voice', '/speak', { text: 'Limes' });
      expect(voice).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
    } finally {
      await without.close();
    }
  }, 30_000);

  it('LOCAL_MODELS=off runs every seeded service on the demo', async () => {
    const off = await startPlatformServer({ env: { LOCAL_DEMO_STEP_MS: '0', LOCAL_MODELS: 'off' } });
    try {
      const { token: own } = await runner(off, 'models-off');
      const cutout = await runService(off, own, 'lime-cutout', '/remove', { image: await shapeImage(64) });
      expect(cutout).toMatchObject({ status: 'FINISHED', runtime: 'local-demo' });
    } finally {
      await off.close();
    }
  }, 30_000);
});
