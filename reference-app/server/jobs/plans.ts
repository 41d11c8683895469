import { sql } from 'kysely';

// Jobs a user may have PROCESSING at once, by plan (docs/jobs.md: concurrency). More queued jobs
// wait their turn; they are never refused for concurrency.
export const PLAN_CONCURRENCY = { free: 2, plus: 4, pro: 8, enterprise: 16 } as const;

/** SQL for the limit of the user in `userColumn`, from their active subscription. */
export function concurrencyLimitSql(userColumn: string) {
  const cases = Object.entries(PLAN_CONCURRENCY)
    .filter(([plan]) => plan !== 'free')
    .map(([plan, limit]) => `WHEN '${plan}' THEN ${limit}`)
    .join(' ');
  return sql.raw(
    `(CASE (SELECT s.plan_type FROM subscriptions s WHERE s.user_id = ${userColumn} AND s.status = 'active') ${cases} ELSE ${PLAN_CONCURRENCY.free} END)`,
  );
}
