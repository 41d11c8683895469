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
const API_KEY_PREFIX = 'lime_';
/** Entries kept (anonymous answers plus one per signed-in user seen recently). */
const MAX_ENTRIES = 2_000;
/** How long a verified access token is trusted without verifying its signature again. */
const TOKEN_TRUST_MS = 60_000;
const MAX_TOKENS = 10_000;

interface Entry {
  body: Bytes;
  etag: string;
  headers: Record<string, string>;
  encoded: Partial<Record<Encoding, Promise<Bytes>>>;
  /** The shared public answers are worth the slowest, smallest compression; personal ones not. */
  level: 'fast' | 'best';
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

  /** Entries held now (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size;
  }

  /** Who the answer is for: 'public', 'user:<id>', or undefined to skip the cache (API keys). */
  async #scope(c: Context, perCaller: boolean): Promise<string | undefined> {
    if (!perCaller) return 'public';
    const header = c.req.header('authorization');
    if (!header) return 'public';
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    // A malformed header or a bad token reads the public catalogue (the route's own rule).
    if (!token) return 'public';
    if (token.startsWith(API_KEY_PREFIX)) return undefined;
    const now = Date.now();
    const known = this.#tokens.touch(token);
    if (known && known.until > now) return `user:${known.userId}`;
    const userId = await this.verify(token);
    if (!userId) return 'public';
    this.#tokens.set(token, { userId, until: now + TOKEN_TRUST_MS });
    return `user:${userId}`;
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
      const original = c.res;
      const entry = await entryOf(original, perCaller && scope !== 'public');
      if (scope && this.#listening && generation === this.#generation) this.#entries.set(key, entry);
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
    level: personal ? 'fast' : 'best',
  };
}

async function answer(c: Context, entry: Entry, perCaller: boolean): Promise<Response> {
  const headers = new Headers(entry.headers);
  if (perCaller) headers.set('Vary', appendVary(headers.get('vary'), 'Authorization'));
  const encoding = entry.body.length >= MIN_COMPRESS_BYTES ? preferredEncoding(c.req.header('accept-encoding')) : undefined;
  headers.set('ETag', encoding ? `W/${entry.etag}` : entry.etag);
  if (matchesEtag(c.req.header('if-none-match'), entry.etag)) return new Response(null, { status: 304, headers });
  let body = entry.body;
  if (encoding) {
    // Compressed once per entry: the catalogue is read far more often than written.
    body = await (entry.encoded[encoding] ??= compress(entry.body, encoding, entry.level));
    headers.set('Content-Encoding', encoding);
  }
  headers.set('Content-Length', String(body.length));
  return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
}
