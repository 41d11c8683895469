import { sql } from 'kysely';

// The webhook deliveries a queue statement adds for the jobs it changes (docs/jobs.md, "Webhooks"),
// in the same statement; jobs/webhooks.ts sends them.

/**
 * A job's webhook is sent when it ends unless its `webhook_events` (webhook_events_filter,
 * docs/jobs.md "Webhooks") leave `completed` out; a condition on a CTE's job rows.
 */
export const wantsCompleted = sql`webhook_url IS NOT NULL AND (webhook_events IS NULL OR 'completed' = ANY(webhook_events))`;

/**
 * An INSERT of one delivery of `event` (start, output, logs) for each job of `rows` (a CTE or
 * table with id, user_id, webhook_url, webhook_events) that asked for it. A delivery of that
 * event still waiting to be claimed stands for the new one: it reads the job when it is sent,
 * so a stream of changes (each token, each log line) makes one delivery at a time, not one each.
 */
export function eventWebhooks(rows: 'claimed' | 'u' | 'jobs', event: 'start' | 'output' | 'logs') {
  const r = sql.ref(rows);
  return sql`INSERT INTO webhook_deliveries (job_id, user_id, url, event)
      SELECT ${r}.id, ${r}.user_id, ${r}.webhook_url, ${event} FROM ${sql.table(rows)}
      WHERE ${r}.webhook_url IS NOT NULL AND ${event} = ANY(${r}.webhook_events)
        AND NOT EXISTS (SELECT FROM webhook_deliveries d WHERE d.job_id = ${r}.id AND d.event = ${event}
          AND d.status = 'pending' AND d.attempts = 0 AND d.next_attempt_at <= clock_timestamp())`;
}
