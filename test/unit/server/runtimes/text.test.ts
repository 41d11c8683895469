import { describe, expect, it } from 'vitest';
import { composeReply } from '../../../../reference-app/server/runtimes/local/chat';
import { pngUri, runKind } from './harness';

// Text and JSON outputs of the local-demo runtime.

const conversation = [
  { role: 'system', content: 'You are a helpful travel guide.' },
  { role: 'user', content: 'What should I see in Lisbon in spring?' },
];

describe('llm chat', () => {
  it('streams tokens that compose exactly the final text', async () => {
    const run = await runKind('llm', { messages: conversation });
    expect(run.partials.length).toBeGreaterThan(10);
    expect(run.partials.join('')).toBe(run.result.text);
    expect(run.result.text).toBe(composeReply(conversation as never, 0.7));
    expect(run.result).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: run.result.text } });
    expect(run.result.text).toContain('local-demo');
    expect(run.result.text).toContain('“lisbon”');
    expect(run.result.text).toContain('You asked a question');
    expect(run.result.usage).toMatchObject({ completion_tokens: run.partials.length });
  });

  it('is deterministic for the same conversation and differs for another', async () => {
    const a = await runKind('llm', { messages: conversation });
    const b = await runKind('llm', { messages: conversation });
    const c = await runKind('llm', { messages: [{ role: 'user', content: 'Tell me about volcanoes' }] });
    expect(b.result.text).toBe(a.result.text);
    expect(c.result.text).not.toBe(a.result.text);
  });

  it('stops at max_tokens with finish_reason "length"', async () => {
    const run = await runKind('llm', { messages: conversation, max_tokens: 5 });
    expect(run.partials).toHaveLength(5);
    expect(run.result).toMatchObject({ finish_reason: 'length', usage: { completion_tokens: 5 } });
  });

  it('names the bad message field', async () => {
    await expect(runKind('llm', { messages: [{ role: 'robot', content: 'x' }] })).rejects.toThrow(
      'messages[0].role: must be system, user or assistant',
    );
    await expect(runKind('llm', { messages: [] })).rejects.toThrow('messages: must be a non-empty array');
  });
});

describe('embeddings', () => {
  const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

  it('returns one unit vector per text, of the requested length, deterministically', async () => {
    const texts = ['the cat sat on the mat', 'a cat sat on a mat', 'quarterly revenue grew by four percent'];
    const run = await runKind('embeddings', { input: texts, dimensions: 256 });
    const vectors = run.result.embeddings as number[][];
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(256);
      expect(Math.hypot(...v)).toBeCloseTo(1, 10);
    }
    const again = await runKind('embeddings', { input: texts, dimensions: 256 });
    expect(again.result.embeddings).toEqual(vectors);
    // Texts that share words are closer than unrelated ones.
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(cosine(vectors[0], vectors[2]) + 0.3);
  });

  it('names the bad text', async () => {
    await expect(runKind('embeddings', { input: ['fine', 42] })).rejects.toThrow('input[1]: must be a string');
    await expect(runKind('embeddings', { input: ['fine', '!!!'] })).rejects.toThrow('input[1]: has no words to embed');
  });
});

describe('captioning', () => {
  it('describes the measured orientation, tone and dominant colours', async () => {
    const image = await pngUri(120, 60, (x) => (x < 90 ? [30, 60, 200] : [240, 240, 240]));
    const run = await runKind('captioning', { image, detail: 'long' });
    expect(run.result.text).toMatch(/^A mid-toned landscape image, mostly blue and white\. It is 120×60 pixels/);
    expect(run.result.orientation).toBe('landscape');
    const colours = run.result.colours as { name: string; share: number }[];
    expect(colours[0]).toMatchObject({ name: 'blue', share: 0.75 });
    expect(run.partials.join('')).toBe(run.result.text);
  });
});

describe('ocr', () => {
  it('locates lines and words of dark marks on a light page', async () => {
    // Two "lines": the first with two words (blocks), the second with one.
    const ink = (x: number, y: number) =>
      (y >= 10 && y < 20 && ((x >= 10 && x < 40) || (x >= 60 && x < 90))) || (y >= 40 && y < 50 && x >= 10 && x < 70);
    const run = await runKind('ocr', { image: await pngUri(100, 60, (x, y) => (ink(x, y) ? [0, 0, 0] : [255, 255, 255])) });
    const lines = run.result.lines as { bbox: number[]; words: { bbox: number[] }[] }[];
    expect(lines).toHaveLength(2);
    expect(lines[0].bbox).toEqual([10, 10, 80, 10]);
    expect(lines[0].words.map((w) => w.bbox)).toEqual([
      [10, 10, 30, 10],
      [60, 10, 30, 10],
    ]);
    expect(lines[1].words).toHaveLength(1);
  });

  it('refuses languages that are not a list of codes', async () => {
    await expect(runKind('ocr', { image: await pngUri(8, 8, () => [255, 255, 255]), languages: 'en' })).rejects.toThrow(
      'languages: must be an array of language codes',
    );
  });
});
