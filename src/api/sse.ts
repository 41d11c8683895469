import { createParser } from 'eventsource-parser';
import type { AuthMode, ServerSentEvent, StreamOptions } from './http';
import { detailOf, failure, fieldErrorsOf, INTERNAL_ERROR, OFFLINE_ERROR, type ApiResult } from './result';

// The reading half of `ApiClient.stream()` (http.ts), loaded on the first stream. EventSource
// cannot send an Authorization header, so the stream is a fetch whose body is parsed here.

async function* eventsOf(body: NonNullable<Response['body']>): AsyncGenerator<ServerSentEvent> {
  const queue: ServerSentEvent[] = [];
  const parser = createParser({ onEvent: ({ event, id, data }) => queue.push({ event, id, data }) });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(value);
      while (queue.length) yield queue.shift()!;
    }
  } finally {
    // Reached when the stream ends and when the caller stops iterating early (break, return).
    await reader.cancel().catch(() => {});
  }
}

/**
 * Opens the stream for `ApiClient.stream()`: the same bearer rule as every call (`authorize`),
 * and an error status reads the body's `detail` like any other call (product-rules §7).
 */
export async function openEventStream(
  url: string,
  options: StreamOptions,
  authorize: (mode: AuthMode | undefined, url: string) => Promise<ApiResult<Record<string, string>>>,
  fetchImpl: typeof globalThis.fetch = (...args) => globalThis.fetch(...args),
): Promise<ApiResult<AsyncIterable<ServerSentEvent>>> {
  const authorization = await authorize(options.auth, url);
  if (!authorization.ok) return authorization;
  const init = { headers: { ...options.headers, Accept: 'text/event-stream', ...authorization.data }, signal: options.signal };
  let response: Response;
  try {
    response = await fetchImpl(url, init);
  } catch (error) {
    // fetch rejects with a TypeError when nothing answers, and with an AbortError when the
    // caller closed the stream: neither is a server fault.
    const offline = error instanceof TypeError || (error as { name?: string } | null)?.name === 'AbortError';
    return offline ? failure(0, '', url, OFFLINE_ERROR) : failure(500, INTERNAL_ERROR, url, INTERNAL_ERROR);
  }
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => undefined);
    const result = failure(
      response.status,
      response.statusText,
      response.url || url,
      detailOf(body) ?? (response.statusText || INTERNAL_ERROR),
    );
    const fieldErrors = fieldErrorsOf(body);
    return fieldErrors ? { ...result, fieldErrors } : result;
  }
  return { ok: true, status: response.status, data: eventsOf(response.body) };
}
