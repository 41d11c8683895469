import { sql } from 'kysely';
import type { Db } from '../../db/types';
import type { JobEvents } from '../events';
import { changedNotice, queuedNotice } from './notices';
import { wantsCompleted } from './webhookRows';

// Jobs whose worker stopped: the lease recovery of the housekeeping loop (jobs/worker.ts).

/** Marks a retried job's message; the error of a job lost twice. */
export const REQUEUED_MESSAGE = 'Requeued: the worker running this job stopped; retrying once';
export const WORKER_LOST_ERROR = {
  code: 'worker_lost',
  message: 'The worker running this job stopped twice, so it was not retried again. It was not charged.',
};

/**
 * Jobs whose worker stopped (lease passed; on PGlite at start, any PROCESSING job, since only
 * this process can use the data directory): retried once, then FAILED with `worker_lost` (not
 * charged: its hold is released). Either way the owner's running count goes down.
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
        result_bytes = NULL,
        message = CASE WHEN jobs.attempts < 2 THEN ${REQUEUED_MESSAGE} ELSE NULL END,
        error = CASE WHEN jobs.attempts < 2 THEN NULL ELSE ${JSON.stringify(WORKER_LOST_ERROR)}::jsonb END,
        finished_at = CASE WHEN jobs.attempts < 2 THEN NULL ELSE clock_timestamp() END,
        output_expires_at = CASE WHEN jobs.attempts < 2 THEN NULL
          ELSE clock_timestamp() + make_interval(hours => ${retentionHours}) END,
        cost_credits = CASE WHEN jobs.attempts < 2 THEN NULL ELSE 0 END,
        version = version + 1
      FROM lost WHERE jobs.id = lost.id
      RETURNING jobs.id, jobs.status, jobs.version, jobs.user_id, jobs.webhook_url, jobs.webhook_events
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url)
      SELECT id, user_id, webhook_url FROM u WHERE status = 'FAILED' AND ${wantsCompleted}
    ), slots AS (
      UPDATE job_users SET running = greatest(job_users.running - n.lost, 0), queued = job_users.queued + n.requeued
      FROM (SELECT user_id, count(*) AS lost, count(*) FILTER (WHERE status = 'QUEUED') AS requeued FROM u GROUP BY user_id) n
      WHERE job_users.user_id = n.user_id
    )
    SELECT u.id, u.status, ${changedNotice(events)}, ${queuedNotice(events)} FROM u`.execute(db);
  return result.rows;
}
