import { sql } from 'kysely';
import type { Db } from '../../db/types';
import type { JobEvents } from '../events';
import { changedNotice } from './notices';
import { eventWebhooks } from './webhookRows';

// A running job's progress and streamed text, with its notification and `output` webhooks.

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
      RETURNING id, version, user_id, webhook_url, webhook_events
    ), output_hooks AS (
      ${eventWebhooks('u', 'output')} AND ${update.text !== null}
    )
    SELECT ${changedNotice(events)} FROM u`.execute(db);
}
