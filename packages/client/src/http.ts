import { ApiError, ConnectionError } from './errors.ts';
import type { FieldError } from './types.ts';

// fetch with retries: jittered exponential backoff on 429/502/503/504 and on network failures,
// honouring Retry-After. A retry sends the request exactly as before, headers included, so a
// submission keeps its Idempotency-Key and the server answers the same job instead of creating
// (and charging) another. An aborted signal stops at once, between attempts too.
//
// The credential goes to the base URL's origin and nowhere else (docs/sdk.md, "Redirects and
// plain HTTP"). Redirects are followed here rather than by the runtime's fetch, which may or may
// not drop Authorization on a hop to another origin (Node 20's does; other fetches, such as an
// older undici or one passed in as `fetch`, are not all known to): a hop to another origin
// (host, port or scheme, https to http included) goes on without the credential headers.

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

/** Statuses whose Location the client follows, as fetch does. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Hops of one request before it fails, as fetch's limit. */
const MAX_REDIRECTS = 20;
/** Request headers that carry a credential: never sent on to another origin. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie']);
/** Headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
]);

/** localhost, 127.0.0.0/8 or ::1 (a URL's `hostname`): traffic that never leaves the machine. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

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
  const absolute = (path: string) => /^https?:\/\//i.test(path);
  const url = (path: string) => (absolute(path) ? path : `${base}${path}`);
  // '' or a path is the page's own origin (a browser); an absolute URL names its origin.
  const baseOrigin = absolute(base) ? originOf(base) : undefined;
  if (baseOrigin?.startsWith('http:') && !isLoopbackHost(new URL(base).hostname)) {
    console.warn(
      `@limelight/client: ${base} is plain HTTP to another machine: the API key and every input and output can be read on the way; use https://`,
    );
  }
  /** Set when fetch hides where a redirect goes (a browser's `opaqueredirect`). */
  let runtimeFollows = false;

  /**
   * fetch that follows redirects itself: the same statuses, methods and limit as fetch, but a hop
   * to another origin is sent without the credential headers. A browser does not show a redirect's
   * Location to scripts; there the browser follows, under the Fetch standard's rule that removes
   * Authorization on a hop to another origin.
   */
  async function fetchFollowing(target: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response> {
    if (runtimeFollows) return doFetch(target, init);
    let current = target;
    let { method = 'GET', headers, body } = init;
    for (let hops = 0; ; hops++) {
      const response = await doFetch(current, { ...init, method, headers, body, redirect: 'manual' });
      if (response.type === 'opaqueredirect') {
        runtimeFollows = true;
        return doFetch(current, { ...init, method, headers, body });
      }
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
      await response.body?.cancel().catch(() => {});
      if (hops >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects from ${target}`);
      // A base URL of '' or a path is relative to the page (a browser's own origin).
      const here = new URL(current, (globalThis as { location?: { href?: string } }).location?.href);
      const next = new URL(location, here);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new TypeError(`a redirect to ${next.protocol} is not followed`);
      const keep = (drop: ReadonlySet<string>) =>
        Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
      if (
        ((response.status === 301 || response.status === 302) && method === 'POST') ||
        (response.status === 303 && method !== 'GET' && method !== 'HEAD')
      ) {
        method = 'GET';
        body = null;
        headers = keep(BODY_HEADERS);
      }
      if (next.origin !== here.origin) headers = keep(CREDENTIAL_HEADERS);
      current = next.href;
    }
  }

  /** The response of a request (any 2xx), after retries; other statuses throw ApiError. */
  async function send(path: string, init: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers, ...init.headers };
    const credential = await options.credential();
    if (credential && (!absolute(path) || originOf(path) === baseOrigin)) headers.Authorization = `Bearer ${credential}`;
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['Content-Type'] = 'application/json';
    }
    const retries = init.retry === false ? 0 : (options.retry?.retries ?? 4);
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetchFollowing(url(path), { method: init.method ?? 'GET', headers, body, signal: init.signal });
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
  return new ApiError(response.status, detail, fields, { jobId: response.status === 409 ? namedJob(detail) : undefined });
}

/**
 * The job a 409 names ("Idempotency-Key k was already used for a different request (job <id>)"),
 * so the caller can fetch the job the key already made rather than parse the message.
 */
const namedJob = (detail: string): string | undefined =>
  /\bjob ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i.exec(detail)?.[1];
