import { describe, expect, it } from 'vitest';
import { readLimited } from '../../../../reference-app/server/runtimes/http/readLimited';

/** A response whose body arrives in `parts`, with the Content-Length given (or none). */
function answer(parts: string[], contentLength?: number): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
  return new Response(body, { headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) } });
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const signal = new AbortController().signal;

describe('readLimited', () => {
  it('reads a body of its declared length into one buffer that owns its memory (movable to a data thread)', async () => {
    const bytes = await readLimited(answer(['{"a":', '1,"b":', '[2,3]}'], 17), 100, signal);
    expect(text(bytes)).toBe('{"a":1,"b":[2,3]}');
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
  });

  it('joins the parts when no length is declared', async () => {
    expect(text(await readLimited(answer(['ab', 'cd', 'e']), 100, signal))).toBe('abcde');
  });

  it('keeps every byte of a body longer than declared (a compressed answer declares the compressed length)', async () => {
    expect(text(await readLimited(answer(['abc', 'defg', 'hi'], 4), 100, signal))).toBe('abcdefghi');
  });

  it('answers only what came of a body shorter than declared', async () => {
    expect(text(await readLimited(answer(['abc'], 10), 100, signal))).toBe('abc');
  });

  it('refuses a declared length over the limit before reading, and a body that grows past it', async () => {
    await expect(readLimited(answer(['x'], 101), 100, signal)).rejects.toMatchObject({ code: 'too_large' });
    await expect(readLimited(answer(['x'.repeat(60), 'y'.repeat(60)]), 100, signal)).rejects.toMatchObject({ code: 'too_large' });
  });
});
