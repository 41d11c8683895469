import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Db } from '../../db/types';
import { jobChargeCtes } from '../../payments/queries';
import type { JobRow } from '../envelope';
import type { JobEvents } from '../events';
import { changedNotice, queuedNotice } from './notices';
import { wantsCompleted } from './webhookRows';

// Ending jobs: status, charge, earning, counters, files' retention, webhooks and notification in
// ONE statement, for a whole batch (jobs/finish.ts groups them): one round trip, one transaction.
// What a run collects and earns is the ledger's rule (payments/queries.ts, jobChargeCtes).

/** What ending a job answers of it. */
export type EndedJob = Pick<JobRow, 'id' | 'status' | 'version' | 'webhook_url'> & {
  /**
   * Whether any user had queued jobs when the job ended. When none had, the freed slot has nothing
   * to claim: a job queued later wakes the workers itself (its create notifies).
   */
  work_waiting: boolean;
};

export interface FinishValues {
  /** The job to end, as this worker claimed it. */
  job: Pick<JobRow, 'id' | 'user_id' | 'service_id'>;
  status: string;
  /** The result as JSON text (or null), and its size in bytes. */
  resultJson: string | null;
  resultBytes: number | null;
  error: { code: string; message: string } | null;
  message: string | null;
  finishedAt: Date;
  expiresAt: Date;
  gpuSeconds: number | null;
  /** What the run costs, already capped at its hold. */
  costCredits: number;
  /** Whether the run counts as a call (api_usage, the service's run count). */
  counted: boolean;
  month: string;
  usageDescription: string;
}

/**
 * Ends jobs in ONE statement (so one transaction, one round trip for a whole batch): each job's
 * status, its owner's charge settled against its hold (the hold is released by the status
 * leaving QUEUED/PROCESSING), the publisher's share of what was actually collected (an owner's
 * jobs are charged in order, each at most what the balance still holds after the ones before),
 * the usage counters, the stored files' retention, the webhook deliveries and the owners'
 * running counts. Answers what the worker needs of each ended job (not the whole row: its input
 * and result would be parsed for nothing), and whether work is waiting; a job that is no longer
 * this worker's (recovery took it) is left out. Other processes hear of the freed slots only
 * when work is waiting.
 */
export async function finishJobRows(db: Db, events: JobEvents, workerId: string, ends: readonly FinishValues[]): Promise<EndedJob[]> {
  const values = ends.map((v, ord) => ({
    ord,
    id: v.job.id,
    user_id: v.job.user_id,
    service_id: v.job.service_id,
    status: v.status,
    // JSON text inside JSON: the result keeps its exact bytes (and size) until the cast below.
    result: v.resultJson,
    result_bytes: v.resultBytes,
    error: v.error,
    message: v.message,
    finished_at: v.finishedAt.toISOString(),
    expires_at: v.expiresAt.toISOString(),
    gpu_seconds: v.gpuSeconds,
    cost_credits: v.costCredits,
    counted: v.counted,
    month: v.month,
    usage_description: v.usageDescription,
  }));
  const result = await sql<EndedJob>`${prepared('finish_jobs')}
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(ord integer, id uuid, user_id uuid, service_id text,
        status text, result text, result_bytes integer, error jsonb, message text, finished_at timestamptz, expires_at timestamptz,
        gpu_seconds double precision, cost_credits numeric, counted boolean, month text, usage_description text)
    ), u AS (
      UPDATE jobs SET
        status = v.status,
        result = v.result::jsonb,
        result_bytes = v.result_bytes,
        error = v.error,
        message = v.message,
        progress = CASE WHEN v.status = 'FINISHED' THEN 1 ELSE jobs.progress END,
        finished_at = v.finished_at,
        output_expires_at = v.expires_at,
        gpu_seconds = v.gpu_seconds,
        cost_credits = v.cost_credits,
        worker_id = NULL,
        lease_until = NULL,
        version = jobs.version + 1
      FROM v WHERE jobs.id = v.id AND jobs.worker_id = ${workerId} AND jobs.status = 'PROCESSING'
      RETURNING jobs.*
    ), ended AS (
      SELECT v.* FROM v JOIN u ON u.id = v.id
    ), ${jobChargeCtes('ended')}, calls AS (
      INSERT INTO api_usage (user_id, month, calls)
      SELECT user_id, month, count(*) FROM ended WHERE counted GROUP BY user_id, month
      ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + excluded.calls
    ), runs AS (
      UPDATE models SET n_usages = n_usages + r.n
      FROM (SELECT service_id, count(*) AS n FROM ended WHERE counted GROUP BY service_id) r WHERE models.id = r.service_id
    ), files AS (
      UPDATE stored_files SET expires_at = e.expires_at FROM ended e WHERE stored_files.job_id = e.id
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE ${wantsCompleted}
    ), slots AS (
      UPDATE job_users SET running = greatest(running - n.n, 0)
      FROM (SELECT user_id, count(*) AS n FROM u GROUP BY user_id) n WHERE job_users.user_id = n.user_id
    ), waiting AS (
      SELECT EXISTS (SELECT 1 FROM job_users WHERE queued > 0) AS work_waiting
    )
    SELECT u.id, u.status, u.version, u.webhook_url, waiting.work_waiting, ${changedNotice(events)},
      CASE WHEN waiting.work_waiting THEN ${queuedNotice(events)} END
    FROM u, waiting`.execute(db);
  return result.rows;
}
