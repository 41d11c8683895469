import { DomainError } from '../errors';
import type { StatementHit } from '../http/queries';
import { perAccountRefusal, retryAfterSeconds, storeKey, type RateLimiter } from '../http/rateLimit';

// The per-account limit of job creates (RATE_LIMIT_JOBS per RATE_LIMIT_WINDOW, docs/security.md,
// "Limits"), for POST /v1/jobs and the per-service run operations alike. With the shared store
// (the database) a create that reaches the queue is counted by its own insert statement, on the
// same counter row rate-limiter-flexible keeps (`rate_limits`, key `user-jobs:<user>`): one round
// trip fewer on every create (docs/jobs.md, "What makes the path fast"). Every other create
// (bad input, an unknown service, an idempotent replay) is counted through the limiter once it
// has been answered, and a refusal replaces that answer. Once the counter is known to be over the
// limit, this process refuses the user's creates until the window ends without counting them:
// refused hits never change a decision (the window does not move), so the answers are the same
// and a flood past the limit costs no database work. With RATE_LIMIT_STORE=memory each create is
// counted through the limiter first, as every other limit is.

export const CREATE_BUCKET = 'user-jobs';

/**
 * The counter update a create statement makes (http/queries.ts, counterUpsertSql): `points`
 * hits on `key`, the window ending at `expire`, and the limit they are held to.
 */
export interface CounterHit extends StatementHit {
  key: string;
  limit: number;
}

/** The counter after a statement counted its hits. */
export interface CounterState {
  points: number;
  /** Epoch milliseconds at which the window ends. */
  expire: number;
}

export interface CreateLimitOptions {
  limiter: RateLimiter;
  /** Creates per window and account; 0 turns the limit off. */
  limit: number;
  windowSeconds: number;
  /** True when the limiter's counters live in the database the jobs are inserted in. */
  sharedStore: boolean;
}

export class CreateLimit {
  /** Users known to be over the limit, and when their window ends (epoch ms). */
  readonly #refusedUntil = new Map<string, number>();

  constructor(private readonly options: CreateLimitOptions) {}

  /** True when creates are counted by their insert statement. */
  get countsInStatement(): boolean {
    return this.options.sharedStore && this.options.limit > 0;
  }

  /**
   * Runs one create of `userId` under the limit. `create` sets `attempt.counted` when it hands the
   * job to the insert statement (which counts it); a create that ends before that is counted here
   * once it has ended, and a refusal replaces its answer (a 429 comes before a 422, as when the
   * limit was checked first). Throws the refusal (DomainError `rate_limited`, with Retry-After).
   */
  async guard<T>(userId: string, create: (attempt: { counted: boolean }) => Promise<T>): Promise<T> {
    if (this.options.limit <= 0) return create({ counted: true });
    const known = this.#knownRefusal(userId);
    if (known) throw known;
    if (!this.options.sharedStore) {
      const refused = await this.#countAlone(userId);
      if (refused) throw refused;
      return create({ counted: true });
    }
    const attempt = { counted: false };
    const outcome = await create(attempt).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    if (!attempt.counted) {
      const refused = await this.#countAlone(userId);
      if (refused) throw refused;
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** The refusal of a user already known to be over the limit, without counting. */
  #knownRefusal(userId: string): DomainError | undefined {
    const until = this.#refusedUntil.get(userId);
    if (until === undefined) return undefined;
    if (until > Date.now()) return this.#refusal(until - Date.now());
    this.#refusedUntil.delete(userId);
    return undefined;
  }

  /** The counter update for `points` creates of `userId` in one statement. */
  hit(userId: string, points: number): CounterHit {
    const now = Date.now();
    return {
      key: storeKey(CREATE_BUCKET, userId),
      points,
      limit: this.options.limit,
      now,
      expire: now + this.options.windowSeconds * 1000,
    };
  }

  /**
   * The answer for the create at `ord` of `hit.points` counted together: the i-th is the count
   * before it plus i + 1, as if each had been counted alone in turn.
   */
  refusalAt(userId: string, hit: CounterHit, counter: CounterState, ord: number): DomainError | undefined {
    if (counter.points - (hit.points - 1 - ord) <= hit.limit) return undefined;
    this.#remember(userId, counter.expire);
    return this.#refusal(counter.expire - Date.now());
  }

  /** Counts a create the statement did not count (through the limiter); its refusal, if over. */
  async #countAlone(userId: string): Promise<DomainError | undefined> {
    const { limiter, limit, windowSeconds } = this.options;
    const decision = await limiter.hit(CREATE_BUCKET, userId, limit, windowSeconds);
    // Not remembered: the limiter answers whole seconds, the window's exact end is not known here.
    return decision.allowed ? undefined : this.#refusal(decision.retryAfter * 1000);
  }

  #remember(userId: string, until: number) {
    if (this.#refusedUntil.size > 10_000) this.#refusedUntil.clear();
    this.#refusedUntil.set(userId, until);
  }

  #refusal(msLeft: number): DomainError {
    const { limit, windowSeconds } = this.options;
    const retryAfter = retryAfterSeconds(msLeft);
    return new DomainError('rate_limited', perAccountRefusal('jobs created', limit, windowSeconds, retryAfter), undefined, {
      retryAfterSeconds: retryAfter,
    });
  }
}
