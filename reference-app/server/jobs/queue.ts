import { sql } from 'kysely';
import type { Db } from '../db/types';
import type { JobRow } from './envelope';
import type { JobEvents } from './events';
import { concurrencyLimitSql } from './plans';

// The durable queue's statements. Each change and its notification are one statement, so a
// listener never hears of a change that did not commit.

/** Marks a retried job's message; the error of a job lost twice. */
export const REQUEUED_MESSAGE = 'Requeued: the worker running this job stopped; retrying once';
export const WORKER_LOST_ERROR = {
  code: 'worker_lost',
  message: 'The worker running this job stopped twice, so it was not retried again. It was not charged.',
};

/**
 * Claims the oldest queued job whose owner is below their plan's concurrency, in one statement:
 * SKIP LOCKED lets several workers (and processes) claim at once without taking the same job.
 */
export async function claimNext(db: Db, events: JobEvents, workerId: string, leaseSeconds: number): Promise<JobRow | undefined> {
  const result = await sql<JobRow>`
    WITH next AS (
      SELECT j.id FROM jobs j
      WHERE j.status = 'QUEUED'
        AND (SELECT count(*) FROM jobs r WHERE r.user_id = j.user_id AND r.status = 'PROCESSING') < ${concurrencyLimitSql('j.user_id')}
      ORDER BY j.created_at, j.id
      LIMIT 1
      FOR UPDATE OF j SKIP LOCKED
    ), claimed AS (
      UPDATE jobs SET
        status = 'PROCESSING',
        worker_id = ${workerId},
        lease_until = clock_timestamp() + make_interval(secs => ${leaseSeconds}),
        started_at = clock_timestamp(),
        attempts = attempts + 1,
        version = version + 1
      FROM next WHERE jobs.id = next.id AND jobs.status = 'QUEUED'
      RETURNING jobs.*
    )
    SELECT claimed.*, ${events.changed()} FROM claimed`.execute(db);
  return result.rows[0];
}

/** Extends the lease; answers whether the owner asked to cancel, or undefined if the job is no longer ours. */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseSeconds: number) {
  const row = await db
    .updateTable('jobs')
    .set({ lease_until: sql`clock_timestamp() + make_interval(secs => ${leaseSeconds})` })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'PROCESSING')
    .returning('cancel_requested')
    .executeTakeFirst();
  return row ? { cancelRequested: row.cancel_requested } : undefined;
}

/** Saves progress and streamed text of a running job. */
export async function saveProgress(
  db: Db,
  events: JobEvents,
  jobId: string,
  workerId: string,
  update: { progress: number; message: string | null; text: string | null },
): Promise<void> {
  await sql`
    WITH u AS (
      UPDATE jobs SET
        progress = ${update.progress},
        message = ${update.message},
        result = ${update.text === null ? null : JSON.stringify({ text: update.text })}::jsonb,
        version = version + 1
      WHERE id = ${jobId} AND worker_id = ${workerId} AND status = 'PROCESSING'
      RETURNING id, version
    )
    SELECT ${events.changed()} FROM u`.execute(db);
}

/**
 * Jobs whose worker stopped (lease passed; on PGlite at start, any PROCESSING job, since only
 * this process can use the data directory): retried once, then FAILED with `worker_lost`.
 */
export async function recoverAbandoned(db: Db, events: JobEvents, retentionHours: number, everyProcessing: boolean) {
  const result = await sql<{ id: string; status: string }>`
    WITH lost AS (
      SELECT id FROM jobs
      WHERE status = 'PROCESSING' AND (${everyProcessing} OR lease_until < clock_timestamp())
      FOR UPDATE SKIP LOCKED
    ), u AS (
      UPDATE jobs SET
        status = CASE WHEN jobs.attempts < 2 THEN 'QUEUED' ELSE 'FAILED' END,
        worker_id = NULL,
        lease_until = NULL,
        progress = 0,
        result = NULL,
        message = CASE WHEN jobs.attempts < 2 THEN ${REQUEUED_MESSAGE} ELSE NULL END,
        error = CASE WHEN jobs.attempts < 2 THEN NULL ELSE ${JSON.stringify(WORKER_LOST_ERROR)}::jsonb END,
        finished_at = CASE WHEN jobs.attempts < 2 THEN NULL ELSE clock_timestamp() END,
        output_expires_at = CASE WHEN jobs.attempts < 2 THEN NULL
          ELSE clock_timestamp() + make_interval(hours => ${retentionHours}) END,
        cost_credits = CASE WHEN jobs.attempts < 2 THEN NULL ELSE 0 END,
        version = version + 1
      FROM lost WHERE jobs.id = lost.id
      RETURNING jobs.id, jobs.status, jobs.version, jobs.user_id, jobs.webhook_url
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url)
      SELECT id, user_id, webhook_url FROM u WHERE status = 'FAILED' AND webhook_url IS NOT NULL
    )
    SELECT u.id, u.status, ${events.changed()}, ${events.queued()} FROM u`.execute(db);
  return result.rows;
}

/** How many queued jobs run before this one (all users: the queue is shared). */
export async function queuePosition(q: Db, row: Pick<JobRow, 'id' | 'created_at'>): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM jobs
    WHERE status = 'QUEUED' AND (created_at, id) < (${row.created_at}, ${row.id}::uuid)`.execute(q);
  return Number(result.rows[0]?.n ?? 0);
}

/** Clears results past their retention (the job record itself stays; files expire in files.ts). */
export async function expireOutputs(db: Db): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ result: sql`NULL` as never })
    .where('output_expires_at', '<', new Date())
    .where('result', 'is not', null)
    .execute();
}
