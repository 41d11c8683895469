import { ApiError, ConnectionError } from './errors.ts';
import type { FieldError } from './types.ts';

// fetch with retries: jittered exponential backoff on 429/502/503/504 and on network failures,
// honouring Retry-After. A retry sends the request exactly as before, headers included, so a
// submission keeps its Idempotency-Key and the server answers the same job instead of creating
// (and charging) another. An aborted signal stops at once, between attempts too.

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Longest pause between two attempts, whatever Retry-After asks. */
const MAX_PAUSE_MS = 30_000;

export interface RetryOptions {
  /** Retries after the first attempt (default 4). */
  retries?: number;
  /** The first pause's upper bound in ms (default 500); it doubles each retry. */
  baseDelayMs?: number;
  /** Cap of the backoff in ms (default 8000). */
  maxDelayMs?: number;
}

/** Retry-After (seconds or an HTTP date) in ms, or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full jitter: a random pause in [0, min(max, base * 2^attempt)]. */
export function backoffMs(attempt: number, options: RetryOptions = {}, random = Math.random): number {
  const cap = Math.min(options.maxDelayMs ?? 8000, (options.baseDelayMs ?? 500) * 2 ** attempt);
  return Math.floor(random() * cap);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const isAbort = (error: unknown, signal?: AbortSignal) =>
  signal?.aborted || (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));

export interface HttpOptions {
  baseUrl: string;
  /** The bearer credential of each request (an API key or an access token). */
  credential: () => string | undefined | Promise<string | undefined>;
  fetch?: typeof fetch;
  retry?: RetryOptions;
  headers?: Record<string, string>;
}

export interface RequestOptions {
  method?: string;
  body?: BodyInit | null;
  json?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Only for requests that are safe to repeat; default true. */
  retry?: boolean;
}

export type Http = ReturnType<typeof createHttp>;

export function createHttp(options: HttpOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const url = (path: string) => (/^https?:\/\//.test(path) ? path : `${base}${path}`);

  /** The response of a request (any 2xx), after retries; other statuses throw ApiError. */
  async function send(path: string, init: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers, ...init.headers };
    const credential = await options.credential();
    if (credential) headers.Authorization = `Bearer ${credential}`;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['Content-Type'] = 'application/json';
    }
    const retries = init.retry === false ? 0 : (options.retry?.retries ?? 4);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url(path), { method: init.method ?? 'GET', headers, body, signal: init.signal });
      } catch (error) {
        if (isAbort(error, init.signal)) throw init.signal?.reason ?? error;
        if (attempt >= retries)
          throw new ConnectionError(`${init.method ?? 'GET'} ${url(path)} failed: ${String(error)}`, { cause: error });
        await sleep(backoffMs(attempt, options.retry), init.signal);
        continue;
      }
      if (response.ok) return response;
      if (RETRY_STATUSES.has(response.status) && attempt < retries) {
        const pause = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt, options.retry);
        await response.body?.cancel().catch(() => {});
        await sleep(Math.min(pause, MAX_PAUSE_MS), init.signal);
        continue;
      }
      throw await errorOf(response);
    }
  }

  async function json<T>(path: string, init: RequestOptions = {}): Promise<T> {
    const response = await send(path, init);
    return (await response.json()) as T;
  }

  return { send, json, url };
}

/** The ApiError of an error response (`{ detail, errors? }`, or its text). */
export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let detail = text || response.statusText || `HTTP ${response.status}`;
  let fields: FieldError[] = [];
  try {
    const body = JSON.parse(text) as { detail?: unknown; errors?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    if (Array.isArray(body.errors)) fields = body.errors as FieldError[];
  } catch {
    // Not JSON: keep the text.
  }
  return new ApiError(response.status, detail, fields);
}
