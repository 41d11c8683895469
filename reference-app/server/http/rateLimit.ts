import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GroupCommit } from '../db/groupCommit';
import { pgStyleClient } from '../db/pgClient';
import type { Db } from '../db/types';
import { RATE_LIMITS_TABLE } from './queries';

// Fixed-window counters per bucket (sign-in, e-mail, …) and key (client address, account, mail
// recipient), counted by rate-limiter-flexible. The counters live in the `rate_limits` table
// (migration 003), so every server process on one database shares them and a limit holds
// however many processes a load balancer spreads the requests over. Each count is one atomic
// INSERT … ON CONFLICT DO UPDATE … RETURNING, the library's own statement, run through Kysely
// so that it works on PGlite as on PostgreSQL. Should the database fail, an in-memory limiter
// with the same limits stands in (per process) rather than letting every request through.
// RATE_LIMIT_STORE=memory uses memory only: for a single process that must not write.
// Hits on one counter that arrive while its statement is in flight are counted together in the
// next one (db/groupCommit.ts): a burst of job creates costs one write, not one per request, and
// each hit gets the answer it would have had alone (the counts are consecutive).

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (at least 1 when refused). */
  retryAfter: number;
}

export interface RateLimiterOptions {
  /** Default window in seconds (RATE_LIMIT_WINDOW). */
  windowSeconds: number;
  /** The database for the shared counters; without it counters are in memory. */
  db?: Db;
}

/** The key of a counter in the store: rate-limiter-flexible joins its keyPrefix (the bucket) and the key so. */
export const storeKey = (bucket: string, key: string) => `${bucket}:${key}`;

/** The detail of a per-account limit's 429 (the job service's create limit and the API's per-user ones say it alike). */
export const perAccountRefusal = (what: string, limit: number, windowSeconds: number, retryAfter: number) =>
  `Too many ${what}: at most ${limit} per ${windowSeconds} s per account; retry in ${retryAfter} s`;

/** Retry-After for a window that ends in `ms`: whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

interface Hit {
  limiter: RateLimiterAbstract;
  key: string;
  limit: number;
}

export class RateLimiter {
  readonly #limiters = new Map<string, RateLimiterAbstract>();
  readonly #storeClient: ReturnType<typeof pgStyleClient> | undefined;
  readonly #hits = new GroupCommit<Hit, RateDecision>((hits) => countHits(hits));

  constructor(private readonly options: RateLimiterOptions) {
    this.#storeClient = options.db ? pgStyleClient(options.db) : undefined;
  }

  /** One limiter per bucket, limit and window; the bucket names the counters (key prefix). */
  #limiter(bucket: string, limit: number, windowSeconds: number): RateLimiterAbstract {
    const id = `${bucket}/${limit}/${windowSeconds}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      const base = { keyPrefix: bucket, points: limit, duration: windowSeconds };
      limiter = this.#storeClient
        ? new RateLimiterPostgres({
            ...base,
            storeClient: this.#storeClient,
            storeType: 'pool',
            tableName: RATE_LIMITS_TABLE,
            tableCreated: true,
            // Expired rows are removed when a key is counted again; the sweep runs on a timer
            // that must not keep the process alive or touch a closed database.
            clearExpiredByTimeout: false,
            insuranceLimiter: new RateLimiterMemory(base),
          })
        : new RateLimiterMemory(base);
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Counts one hit for `key`; a limit of 0 means unlimited. */
  async hit(bucket: string, key: string, limit: number, windowSeconds = this.options.windowSeconds): Promise<RateDecision> {
    if (limit <= 0) return { allowed: true, retryAfter: 0 };
    const limiter = this.#limiter(bucket, limit, windowSeconds);
    return this.#hits.add(`${bucket}/${limit}/${windowSeconds}/${key}`, { limiter, key, limit });
  }

  /** Gives back one hit counted by `hit` (a sign-in attempt that turned out right). */
  async refund(bucket: string, key: string, limit: number, windowSeconds = this.options.windowSeconds): Promise<void> {
    if (limit <= 0) return;
    await this.#limiter(bucket, limit, windowSeconds).reward(key);
  }
}

/** Counts hits of ONE counter in one statement; the i-th hit's count is the total minus those after it. */
async function countHits(hits: Hit[]): Promise<RateDecision[]> {
  const { limiter, key, limit } = hits[0]!;
  let res: RateLimiterRes;
  try {
    res = await limiter.consume(key, hits.length);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    res = rejection;
  }
  const retryAfter = retryAfterSeconds(res.msBeforeNext);
  return hits.map((_, i) => ({ allowed: res.consumedPoints - (hits.length - 1 - i) <= limit, retryAfter }));
}
