import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Db } from '../../db/types';
import { planConcurrencySql } from '../../payments/queries';
import type { ClaimScope } from '../../hosting/runtimeRegistry';
import type { JobRow } from '../envelope';
import type { JobEvents } from '../events';
import { changedNotice } from './notices';
import { eventWebhooks } from './webhookRows';

// Claiming jobs for a worker's free slots (docs/jobs.md: queue, fairness). Which runtimes run in
// which slot pool is the runtimes' to declare (hosting/runtimeRegistry.ts), and a user's concurrency
// their plan's (payments/queries.ts): the statement names neither.

export interface ClaimOptions {
  workerId: string;
  leaseSeconds: number;
  /** How many jobs to take for each slot pool (its free slots): local runtimes, and the I/O runtimes'. */
  limits: { local: number; io: number };
  /** Runtimes of the I/O pool, as they declare it (hosting/runtimeRegistry.ts, IO_RUNTIMES); every other runs in the local pool. */
  ioRuntimes: readonly string[];
  maxRunningPerService: number;
  maxRunningPerPublisher: number;
  /**
   * Runtimes whose jobs this process may take only for some services (a runner's deployments:
   * docs/deploy.md, "Several runners"; registry.claimScope()); null or absent: every job.
   */
  scope?: ClaimScope | null;
}

/**
 * Claims up to `limits` jobs of each slot pool in ONE statement (docs/jobs.md: fairness):
 * round-robin across users (every user's oldest claimable job before anyone's second, users
 * served longest ago first), each user below their plan's concurrency (the maintained
 * job_users.running, not a count per candidate), each service and publisher below its cap.
 * SKIP LOCKED lets several workers (and processes) claim at once without taking the same job.
 */
export async function claimJobs(db: Db, events: JobEvents, options: ClaimOptions): Promise<JobRow[]> {
  const limits = { local: Math.max(0, options.limits.local), io: Math.max(0, options.limits.io) };
  const ioRuntimes = sql.val(options.ioRuntimes as string[]);
  // A job of a scoped runtime only of the scope's services; with no scope, no runtime is scoped.
  const inScope = sql`(NOT (j.runtime = ANY(${sql.val([...(options.scope?.runtimes ?? [])])}::text[]))
              OR j.service_id = ANY(${sql.val([...(options.scope?.services ?? [])])}::text[]))`;
  const result = await sql<JobRow>`${prepared('claim_jobs')}
    WITH running AS MATERIALIZED (
      SELECT service_id, publisher_id FROM jobs WHERE status = 'PROCESSING'
    ), per_service AS (
      SELECT service_id, count(*) AS n FROM running GROUP BY service_id
    ), per_publisher AS (
      SELECT publisher_id, count(*) AS n FROM running WHERE publisher_id IS NOT NULL GROUP BY publisher_id
    ), waiting AS MATERIALIZED (
      -- Users with queued jobs, with how many more their plan lets run now: read once per user
      -- (materialized), though both pools' subqueries below and their sum limit by it.
      SELECT u.user_id, u.served_at, greatest(${planConcurrencySql('u.user_id')} - u.running, 0) AS room
      FROM job_users u WHERE u.queued > 0
    ), fair AS (
      -- Each waiting user's oldest jobs of the pools with free slots, as many as the plan still
      -- allows, from the claimable index.
      SELECT q.*, u.served_at FROM waiting u
      CROSS JOIN LATERAL (
        SELECT j.*, row_number() OVER (ORDER BY j.created_at, j.id) AS user_rank
        FROM (
          (SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at, false AS io FROM jobs j
            WHERE j.user_id = u.user_id AND j.status = 'QUEUED' AND NOT (j.runtime = ANY(${ioRuntimes}::text[])) AND ${inScope}
            ORDER BY j.created_at, j.id
            LIMIT least(u.room, ${limits.local}::int))
          UNION ALL
          (SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at, true AS io FROM jobs j
            WHERE j.user_id = u.user_id AND j.status = 'QUEUED' AND j.runtime = ANY(${ioRuntimes}::text[]) AND ${inScope}
            ORDER BY j.created_at, j.id
            LIMIT least(u.room, ${limits.io}::int))
          ORDER BY created_at, id
          LIMIT u.room
        ) j
      ) q
    ), capped AS (
      SELECT f.*,
        row_number() OVER (PARTITION BY f.service_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS service_rank,
        row_number() OVER (PARTITION BY f.publisher_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS publisher_rank
      FROM fair f
    ), eligible AS (
      SELECT c.id, c.io,
        row_number() OVER (PARTITION BY c.io ORDER BY c.user_rank, c.served_at NULLS FIRST, c.created_at, c.id) AS pool_rank
      FROM capped c
      LEFT JOIN per_service s ON s.service_id = c.service_id
      LEFT JOIN per_publisher p ON p.publisher_id = c.publisher_id
      WHERE c.service_rank <= ${options.maxRunningPerService} - coalesce(s.n, 0)
        AND (c.publisher_id IS NULL OR c.publisher_rank <= ${options.maxRunningPerPublisher} - coalesce(p.n, 0))
    ), pick AS (
      SELECT id FROM eligible WHERE pool_rank <= CASE WHEN io THEN ${limits.io}::int ELSE ${limits.local}::int END
    ), locked AS (
      SELECT j.id FROM jobs j WHERE j.id IN (SELECT id FROM pick) AND j.status = 'QUEUED' FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE jobs SET
        status = 'PROCESSING',
        worker_id = ${options.workerId},
        lease_until = clock_timestamp() + make_interval(secs => ${options.leaseSeconds}),
        started_at = clock_timestamp(),
        attempts = attempts + 1,
        version = version + 1
      FROM locked WHERE jobs.id = locked.id
      RETURNING jobs.*
    ), started_hooks AS (
      ${eventWebhooks('claimed', 'start')}
    ), counted AS (
      INSERT INTO job_users (user_id, running, served_at)
      SELECT user_id, count(*), clock_timestamp() FROM claimed GROUP BY user_id
      ON CONFLICT (user_id) DO UPDATE SET running = job_users.running + excluded.running,
        queued = greatest(job_users.queued - excluded.running, 0), served_at = excluded.served_at
    )
    SELECT claimed.*, ${changedNotice(events)} FROM claimed ORDER BY claimed.started_at`.execute(db);
  return result.rows;
}
