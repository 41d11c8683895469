import { sql } from 'kysely';
import type { Db } from '../../db/types';

// The per-user queued and running counts the claim reads (job_users), repaired.

/**
 * Re-counts the queued and running jobs of active users. The statements that change a job's
 * status keep the counts exact; this only repairs jobs removed with their user or service
 * (ON DELETE CASCADE), which no statement of ours sees.
 */
export async function recountJobUsers(db: Db): Promise<void> {
  await sql`
    UPDATE job_users u SET queued = c.queued, running = c.running
    FROM (
      SELECT ju.user_id,
        (SELECT count(*) FROM jobs j WHERE j.user_id = ju.user_id AND j.status = 'QUEUED') AS queued,
        (SELECT count(*) FROM jobs j WHERE j.user_id = ju.user_id AND j.status = 'PROCESSING') AS running
      FROM job_users ju WHERE ju.queued > 0 OR ju.running > 0
    ) c
    WHERE u.user_id = c.user_id AND (u.queued <> c.queued OR u.running <> c.running)`.execute(db);
}
