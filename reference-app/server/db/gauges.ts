import { sql } from 'kysely';
import type { Db } from './types';

// The figures /metrics reads from the database when scraped (http/metrics.ts).

/** Queued jobs and the oldest one's age in seconds, by slot pool (`io` for `ioRuntimes`, else `local`). */
export async function queuedJobsByPool(db: Db, ioRuntimes: readonly string[]) {
  const io = sql.join(ioRuntimes.map((r) => sql.lit(r)));
  const { rows } = await sql<{ pool: 'local' | 'io'; n: number; age: number | null }>`
    SELECT CASE WHEN runtime IN (${io}) THEN 'io' ELSE 'local' END AS pool, count(*)::int AS n,
      extract(epoch FROM now() - min(created_at))::float8 AS age
    FROM jobs WHERE status = 'QUEUED' GROUP BY 1`.execute(db);
  return rows;
}

/** Container deployments (model_hosting rows) by status. */
export async function deploymentsByStatus(db: Db) {
  const { rows } = await sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM model_hosting GROUP BY status`.execute(
    db,
  );
  return rows;
}
