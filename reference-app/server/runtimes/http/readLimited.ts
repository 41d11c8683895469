import { RuntimeError } from '../runtime';

/** Reads a response body, refusing one larger than `limit` bytes before it is all in memory. */
export async function readLimited(response: Response, limit: number, signal: AbortSignal): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new RuntimeError('too_large', `The service's answer is ${declared} bytes; the limit is ${limit}`);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    if (signal.aborted) {
      await reader.cancel().catch(() => undefined);
      throw signal.reason;
    }
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new RuntimeError('too_large', `The service's answer exceeds the limit of ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
