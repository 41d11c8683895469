import { sql } from 'kysely';
import type { Db } from '../../db/types';
import type { JobRow } from '../envelope';
import type { JobEvents } from '../events';
import { cancelNotice, changedNotice } from './notices';
import { wantsCompleted } from './webhookRows';

// Cancelling a job: a queued one ends at once, a running one is asked to stop (its worker ends it).

/** Ends a queued job at once (its hold is released: it is no longer open). */
export async function cancelQueued(db: Db, events: JobEvents, jobId: string, retentionHours: number) {
  const result = await sql<JobRow>`
    WITH u AS (
      UPDATE jobs SET status = 'CANCELLED', message = 'Cancelled by its owner', finished_at = clock_timestamp(),
        output_expires_at = clock_timestamp() + make_interval(hours => ${retentionHours}), cost_credits = 0, version = version + 1
      WHERE id = ${jobId} AND status = 'QUEUED' RETURNING *
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE ${wantsCompleted}
    ), waiting AS (
      UPDATE job_users SET queued = greatest(job_users.queued - 1, 0) FROM u WHERE job_users.user_id = u.user_id
    )
    SELECT u.*, ${changedNotice(events)} FROM u`.execute(db);
  return result.rows[0];
}

/** Asks the worker running the job to stop it (through the row and a notification). */
export async function requestCancel(db: Db, events: JobEvents, jobId: string) {
  await sql`
    WITH u AS (UPDATE jobs SET cancel_requested = true WHERE id = ${jobId} AND status = 'PROCESSING' RETURNING id)
    SELECT ${cancelNotice(events)} FROM u`.execute(db);
}
