import { sql } from 'kysely';

// The SQL of the rate limiter's store (rateLimit.ts): rate-limiter-flexible keeps its counters in
// `rate_limits` (migration 003) and counts through its own statements; the one statement of ours
// that counts on the same rows (the job create, jobs/sql/createJobs.ts) takes its upsert from here,
// so the table's layout is written down in one place beside the limiter.

export const RATE_LIMITS_TABLE = 'rate_limits';

/**
 * Hits counted inside another statement (the job create, jobs/createLimit.ts), on the row the
 * limiter keeps: `points` hits on `key` (null: none), `now` and `expire` in epoch milliseconds,
 * the limiter's clock.
 */
export interface StatementHit {
  key: string | null;
  points: number;
  now: number;
  expire: number;
}

/**
 * rate-limiter-flexible's own upsert (RateLimiterPostgres) of `hit`, as SQL for a CTE of another
 * statement: a window past its end starts again. Returns the counter's `points` and `expire`
 * (no row when `hit.key` is null). The store's table layout stays here, with the limiter's.
 */
export function counterUpsertSql(hit: StatementHit) {
  return sql<{ points: number; expire: string }>`INSERT INTO ${sql.table(RATE_LIMITS_TABLE)} AS r (key, points, expire)
      SELECT ${hit.key}::text, ${hit.points}::integer, ${hit.expire}::bigint WHERE ${hit.key}::text IS NOT NULL
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN r.expire <= ${hit.now}::bigint THEN excluded.points ELSE r.points + excluded.points END,
        expire = CASE WHEN r.expire <= ${hit.now}::bigint THEN excluded.expire ELSE r.expire END
      RETURNING points, expire`;
}
