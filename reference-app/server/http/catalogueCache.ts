import { SESSION_STATE_CACHE_MS } from '../limits';
import type { Context, MiddlewareHandler } from 'hono';
import type { DatabaseHandle } from '../db/connect';
import { replaceResponse } from './compression';
import { etagOf, matchesEtag } from './etag';
import { appendVary, compress, MIN_COMPRESS_BYTES, preferredEncoding, type Bytes, type Encoding } from './encoding';

// Catalogue reads answered from memory with ETag and 304 (docs/deploy.md, "Caching").
// Every write to a catalogue table fires a trigger (migration 006) that NOTIFYs
// limelight_catalogue; each process LISTENs and drops its entries, so processes sharing one
// PostgreSQL never serve a stale catalogue. While the listening connection is down nothing is
// cached (answers still carry ETags). model_descriptors differs per caller (their private
// services), so its entries are keyed by the verified user id; API keys skip the cache because
// each call is counted.

/** The paths under /v1 whose answers are the catalogue; the value says whether they vary by caller. */
export const CATALOGUE_PATHS: ReadonlyMap<string, boolean> = new Map([
  ['/v1/model_management/model_descriptors', true],
  ['/v1/model_management/model_categories', false],
  ['/v1/model_management/pricing_servers', false],
  ['/v1/model_management/model_pricing_table', false],
  ['/v1/payment/plans', false],
]);

export const CATALOGUE_CHANNEL = 'limelight_catalogue';
/**
 * The payload's prefix when a write changed only run counts (migration 012): this cache drops its
 * answers (they show the counts); caches of services and prices may keep theirs.
 */
export const CATALOGUE_COUNTS_PREFIX = 'counts:';
const API_KEY_PREFIX = 'lime_';
/** Entries kept (anonymous answers plus one per signed-in user seen recently). */
const MAX_ENTRIES = 2_000;
/**
 * How long a verified access token is trusted without verifying it again: the API's session-state
 * cache, so a signed-out token stops reading private answers within 5 s here too.
 */
const TOKEN_TRUST_MS = SESSION_STATE_CACHE_MS;
const MAX_TOKENS = 10_000;

interface Entry {
  body: Bytes;
  etag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<Encoding, Promise<Bytes>>>;
  /** The encoded copies once made, for answers that cannot wait (answerAtOnce). */
  ready: Partial<Record<Encoding, Bytes>>;
  /** The headers of each kind of answer (status and encoding), built once: see headersOf. */
  variants: Map<string, AnswerHeaders>;
  /** The shared public answers are worth the slowest, smallest compression; personal ones not. */
  level: 'fast' | 'best';
}

/** Headers of a cached answer. Shared by every answer of its kind, hence frozen. */
export type AnswerHeaders = Readonly<Record<string, string>>;

/** An answer from memory: status, headers (as the cache writes them) and body (null for 304 and HEAD). */
export interface CachedAnswer {
  status: 200 | 304;
  headers: AnswerHeaders;
  body: Bytes | null;
}

/** Resolves a bearer access token to its user id, or undefined when it is not valid. */
export type VerifyToken = (token: string) => Promise<string | undefined>;

/** Map with least-recently-used eviction (a Map iterates in insertion order). */
class Lru<V> extends Map<string, V> {
  constructor(private readonly limit: number) {
    super();
  }
  touch(key: string): V | undefined {
    const value = super.get(key);
    if (value !== undefined) {
      super.delete(key);
      super.set(key, value);
    }
    return value;
  }
  override set(key: string, value: V): this {
    super.delete(key);
    super.set(key, value);
    while (this.size > this.limit) this.delete(this.keys().next().value!);
    return this;
  }
}

export class CatalogueCache {
  readonly #entries = new Lru<Entry>(MAX_ENTRIES);
  readonly #tokens = new Lru<{ userId: string; until: number }>(MAX_TOKENS);
  /** Bumped by every invalidation: an answer computed across a bump is not stored. */
  #generation = 0;
  #listening = false;
  #stop: (() => Promise<void>) | undefined;

  constructor(private readonly verify: VerifyToken) {}

  /** Starts listening for catalogue writes; until then (or while disconnected) nothing is cached. */
  async listen(database: Pick<DatabaseHandle, 'listen'>): Promise<void> {
    this.#stop = await database.listen(CATALOGUE_CHANNEL, {
      notify: () => this.invalidate(),
      lost: () => {
        this.#listening = false;
        this.invalidate();
      },
      restored: () => {
        this.invalidate();
        this.#listening = true;
      },
    });
    this.#listening = true;
  }

  async close(): Promise<void> {
    this.#listening = false;
    await this.#stop?.();
  }

  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  /**
   * The catalogue's version: changes with every write to it. undefined while not listening, when
   * a write could go unseen, so nothing derived from the catalogue may be kept (siteRenderer.ts).
   */
  get version(): number | undefined {
    return this.#listening ? this.#generation : undefined;
  }

  /** Entries held now (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Who the answer is for, as far as it is known without verifying a signature: 'public' or
   * 'user:<id>'; `skip` for API keys (every call is counted); or a token still to verify.
   */
  #knownScope(perCaller: boolean, authorization: string | null | undefined): { scope: string } | { verify: string } | 'skip' {
    if (!perCaller || !authorization) return { scope: 'public' };
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    // A malformed header or a bad token reads the public catalogue (the route's own rule).
    if (!token) return { scope: 'public' };
    if (token.startsWith(API_KEY_PREFIX)) return 'skip';
    const known = this.#tokens.touch(token);
    if (known && known.until > Date.now()) return { scope: `user:${known.userId}` };
    return { verify: token };
  }

  /** Who the answer is for: 'public', 'user:<id>', or undefined to skip the cache (API keys). */
  async #scope(c: Context, perCaller: boolean): Promise<string | undefined> {
    const known = this.#knownScope(perCaller, c.req.header('authorization'));
    if (known === 'skip') return undefined;
    if ('scope' in known) return known.scope;
    const now = Date.now();
    const userId = await this.verify(known.verify);
    if (!userId) return 'public';
    this.#tokens.set(known.verify, { userId, until: now + TOKEN_TRUST_MS });
    return `user:${userId}`;
  }

  /**
   * The answer to a GET or HEAD of `path` straight from memory, for catalogueFastLane.ts; or
   * undefined when it needs the middleware: not a catalogue path, nothing cached or not
   * listening, a token not verified yet, an API key, or a compressed copy not made yet.
   */
  answerAtOnce(path: string, request: Pick<Request, 'method' | 'headers'>): CachedAnswer | undefined {
    const perCaller = CATALOGUE_PATHS.get(path);
    if (perCaller === undefined || !this.#listening) return undefined;
    const known = this.#knownScope(perCaller, request.headers.get('authorization'));
    if (known === 'skip' || !('scope' in known)) return undefined;
    const entry = this.#entries.touch(`${path} ${known.scope}`);
    if (!entry) return undefined;
    const encoding = negotiate(entry, request.headers.get('accept-encoding'));
    if (matchesEtag(request.headers.get('if-none-match') ?? undefined, entry.etag)) {
      return { status: 304, headers: headersOf(entry, perCaller, 304, encoding), body: null };
    }
    const body = encoding ? entry.ready[encoding] : entry.body;
    if (!body) return undefined;
    return { status: 200, headers: headersOf(entry, perCaller, 200, encoding, body), body: request.method === 'HEAD' ? null : body };
  }

  middleware(): MiddlewareHandler {
    return async (c, next) => {
      const perCaller = CATALOGUE_PATHS.get(c.req.path);
      if (perCaller === undefined || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
      const scope = await this.#scope(c, perCaller);
      // None of these routes reads a query string, so the path and the caller name the answer.
      const key = `${c.req.path} ${scope}`;
      const cached = scope && this.#listening ? this.#entries.touch(key) : undefined;
      if (cached) return answer(c, cached, perCaller);

      const generation = this.#generation;
      await next();
      if (c.res.status !== 200) return;
      // Stored only under the caller the route itself authenticated: a token the route treated as
      // anonymous (its session ended meanwhile) must not file the public answer as that user's.
      const served = (c.get('caller') as { userId?: string; via?: string } | undefined)?.userId;
      const servedScope = perCaller && served ? `user:${served}` : 'public';
      const original = c.res;
      const entry = await entryOf(original, perCaller && scope !== 'public');
      if (scope === servedScope && this.#listening && generation === this.#generation) this.#entries.set(key, entry);
      replaceResponse(c, carryHeaders(original, await answer(c, entry, perCaller)));
    };
  }
}

/** Headers about the body itself; the cache writes its own. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']);

/**
 * Keeps what earlier middleware set on the route's answer (CORS grants, security headers):
 * replacing the response must not drop them.
 */
function carryHeaders(original: Response, replacement: Response): Response {
  for (const [name, value] of original.headers) {
    if (!BODY_HEADERS.has(name) && !replacement.headers.has(name)) replacement.headers.set(name, value);
  }
  return replacement;
}

async function entryOf(res: Response, personal: boolean): Promise<Entry> {
  const body = new Uint8Array(await res.arrayBuffer());
  const vary = res.headers.get('vary');
  return {
    body,
    etag: etagOf(body),
    headers: {
      'Content-Type': res.headers.get('content-type') ?? 'application/json',
      // Revalidated on every use; a signed-in caller's list must stay out of shared caches.
      'Cache-Control': personal ? 'private, no-cache' : 'no-cache',
      Vary: appendVary(vary, 'Accept-Encoding'),
    },
    encoded: {},
    ready: {},
    variants: new Map(),
    level: personal ? 'fast' : 'best',
  };
}

/** The encoding to send the entry in, for this Accept-Encoding (undefined: as it is). */
const negotiate = (entry: Entry, acceptEncoding: string | null | undefined) =>
  entry.body.length >= MIN_COMPRESS_BYTES ? preferredEncoding(acceptEncoding) : undefined;

/**
 * The headers of an answer from `entry` with this status and encoding (and, for a 200, this
 * body). Each entry has at most six kinds of answer, read over and over: they are built once.
 */
function headersOf(entry: Entry, perCaller: boolean, status: 200 | 304, encoding: Encoding | undefined, body?: Bytes): AnswerHeaders {
  const kind = `${status} ${encoding ?? 'identity'}`;
  let headers = entry.variants.get(kind);
  if (!headers) {
    const built: Record<string, string> = { ...entry.headers, ETag: encoding ? `W/${entry.etag}` : entry.etag };
    if (perCaller) built.Vary = appendVary(built.Vary, 'Authorization');
    if (status === 200 && encoding) built['Content-Encoding'] = encoding;
    if (status === 200) built['Content-Length'] = String(body!.length);
    headers = Object.freeze(built);
    entry.variants.set(kind, headers);
  }
  return headers;
}

/** The encoded copy of the entry's body, made once: the catalogue is read far more often than written. */
function encodedBody(entry: Entry, encoding: Encoding): Promise<Bytes> {
  return (entry.encoded[encoding] ??= compress(entry.body, encoding, entry.level).then((bytes) => (entry.ready[encoding] = bytes)));
}

async function answer(c: Context, entry: Entry, perCaller: boolean): Promise<Response> {
  const encoding = negotiate(entry, c.req.header('accept-encoding'));
  if (matchesEtag(c.req.header('if-none-match'), entry.etag)) {
    return new Response(null, { status: 304, headers: headersOf(entry, perCaller, 304, encoding) });
  }
  const body = encoding ? await encodedBody(entry, encoding) : entry.body;
  return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers: headersOf(entry, perCaller, 200, encoding, body) });
}
