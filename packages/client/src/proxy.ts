// @limelight/client/proxy: a server-side proxy for browser apps that must not hold an API key
// (docs/sdk.md, "A proxy for browsers"), as fal's server proxy. The browser's client is created
// with the proxy's URL as its base URL and no key; the proxy forwards the job API paths it allows
// to the platform with the server's key and streams the answer back (event streams included).
//
//   // Next.js: app/api/limelight/[...path]/route.ts
//   import { createProxy } from '@limelight/client/proxy';
//   export const { GET, POST, OPTIONS } = createProxy({ prefix: '/api/limelight' }).routes;
//
//   // Hono: app.all('/api/limelight/*', (c) => proxy(c.req.raw))
//   // Node: http.createServer(toNodeListener(proxy))
//
// A handler is a plain (Request) => Promise<Response>; it imports nothing of Node.
import { envVar } from './env.ts';

export interface ProxyOptions {
  /** The server's API key; default `LIMELIGHT_API_KEY` (the older `LIME_API_KEY`, with a warning). */
  apiKey?: string;
  /** The platform's origin; default `LIMELIGHT_BASE_URL` (the older `LIME_BASE_URL`, with a warning). */
  baseUrl?: string;
  /** Where the proxy is mounted in the app (`/api/limelight`): taken off before forwarding. */
  prefix?: string;
  /** Which requests go through: method and path (after the prefix). Default `DEFAULT_ALLOWED`. */
  allow?: readonly ProxyRule[];
  /**
   * Called first with every request: answer false (403) or a Response to refuse it, e.g. when
   * the app's own session is missing. Without it, any visitor of the app spends the key's credits.
   */
  authorize?: (request: Request) => boolean | Response | Promise<boolean | Response>;
  /**
   * Origins of pages allowed to call the proxy from another origin (CORS). Default none: only
   * pages of the proxy's own origin (a browser sends no preflight for them).
   */
  allowedOrigins?: readonly string[];
  fetch?: typeof fetch;
}

export interface ProxyRule {
  method: string;
  path: RegExp;
}

const ID = '[^/]+';
/**
 * Running jobs and what a run needs: create, read, follow and cancel a job (by its id, which only
 * its creator knows), upload a file, estimate, a service's OpenAPI document and run operation.
 * Not the job list (every job of the key's account) nor the webhook secret.
 */
export const DEFAULT_ALLOWED: readonly ProxyRule[] = [
  { method: 'POST', path: /^\/v1\/jobs$/ },
  { method: 'GET', path: /^\/v1\/jobs\/estimate$/ },
  { method: 'GET', path: new RegExp(`^/v1/jobs/(?!webhook-secret$)${ID}$`) },
  { method: 'GET', path: new RegExp(`^/v1/jobs/${ID}/stream$`) },
  { method: 'POST', path: new RegExp(`^/v1/jobs/${ID}/cancel$`) },
  { method: 'POST', path: /^\/v1\/files$/ },
  { method: 'GET', path: /^\/v1\/services\/.+\/openapi\.json$/ },
  { method: 'POST', path: /^\/v1\/services\/.+\/run\/.+$/ },
];

/** Request headers passed on; the browser's cookies and Authorization never are. */
const FORWARDED_REQUEST = ['accept', 'content-type', 'idempotency-key', 'prefer', 'last-event-id'];
/** Answer headers passed back. */
const FORWARDED_RESPONSE = [
  'content-type',
  'cache-control',
  'location',
  'retry-after',
  'idempotent-replayed',
  'preference-applied',
  'x-accel-buffering',
];

const problem = (status: number, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ detail }), { status, headers: { 'content-type': 'application/json', ...headers } });

export function createProxy(options: ProxyOptions = {}) {
  const apiKey = options.apiKey ?? envVar('LIMELIGHT_API_KEY');
  const baseUrl = (options.baseUrl ?? envVar('LIMELIGHT_BASE_URL'))?.replace(/\/+$/, '');
  if (!apiKey || !baseUrl) throw new TypeError('createProxy: give apiKey and baseUrl (or set LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL)');
  const prefix = (options.prefix ?? '').replace(/\/+$/, '');
  const allow = options.allow ?? DEFAULT_ALLOWED;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  function cors(request: Request): Record<string, string> | undefined {
    const origin = request.headers.get('origin');
    if (!origin || !options.allowedOrigins?.includes(origin)) return undefined;
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': FORWARDED_RESPONSE.join(', '),
      vary: 'Origin',
    };
  }

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const allowedCors = cors(request);
    if (request.method === 'OPTIONS') {
      if (!allowedCors) return problem(403, 'This origin may not call the proxy');
      return new Response(null, {
        status: 204,
        headers: {
          ...allowedCors,
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': FORWARDED_REQUEST.join(', '),
          'access-control-max-age': '600',
        },
      });
    }
    const origin = request.headers.get('origin');
    if (origin && origin !== url.origin && !allowedCors) return problem(403, 'This origin may not call the proxy');
    if (prefix && url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return problem(404, 'Not under the proxy');
    const path = url.pathname.slice(prefix.length) || '/';
    // A path such as /v1/jobs/../files is refused, not normalised by someone else later.
    if (/(^|\/)\.\.?(\/|$)|\/\/|%2f|%5c/i.test(path) || !allow.some((r) => r.method === request.method && r.path.test(path)))
      return problem(403, `${request.method} ${path} is not allowed through this proxy`, allowedCors);
    if (options.authorize) {
      const verdict = await options.authorize(request);
      if (verdict instanceof Response) return verdict;
      if (!verdict) return problem(403, 'Not authorised', allowedCors);
    }
    const headers = new Headers({ authorization: `Bearer ${apiKey}` });
    for (const name of FORWARDED_REQUEST) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // Read whole (a job's input, a file up to the platform's upload limit): a streamed request
    // body needs `duplex`, which not every fetch runtime takes.
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    const answer = await doFetch(`${baseUrl}${path}${url.search}`, {
      method: request.method,
      headers,
      body,
      signal: request.signal,
      redirect: 'manual',
    });
    const out = new Headers(allowedCors);
    for (const name of FORWARDED_RESPONSE) {
      const value = answer.headers.get(name);
      if (value !== null) out.set(name, value);
    }
    return new Response(answer.body, { status: answer.status, headers: out });
  }

  return {
    handle,
    /** Next.js route handlers (`export const { GET, POST, OPTIONS } = proxy.routes`). */
    routes: { GET: handle, POST: handle, OPTIONS: handle },
  };
}

/** The parts of Node's IncomingMessage and ServerResponse a listener uses (no Node import). */
interface NodeRequest extends AsyncIterable<Uint8Array> {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}
interface NodeResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array): unknown;
  end(): unknown;
  headersSent: boolean;
  writableEnded: boolean;
  on(event: 'close', listener: () => void): unknown;
}

/** A Node `http` listener for a fetch handler: `http.createServer(toNodeListener(proxy.handle))`. */
export function toNodeListener(handler: (request: Request) => Promise<Response>) {
  return async (req: NodeRequest, res: NodeResponse) => {
    const gone = new AbortController();
    // The response's close (not the request's, which Node emits once the body is read): the
    // browser went away, so the upstream request (a stream, say) stops too.
    res.on('close', () => {
      if (!res.writableEnded) gone.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const method = req.method ?? 'GET';
    let body: Uint8Array<ArrayBuffer> | undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      const chunks: Uint8Array[] = [];
      for await (const chunk of req) chunks.push(chunk);
      body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (body!.set(c, at), at + c.length), 0);
    }
    try {
      const request = new Request(`http://${headers.get('host') ?? 'localhost'}${req.url ?? '/'}`, {
        method,
        headers,
        body,
        signal: gone.signal,
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    } catch {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    }
    if (!res.writableEnded) res.end();
  };
}
