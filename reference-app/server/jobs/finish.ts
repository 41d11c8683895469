import { sql } from 'kysely';
import { creditsForRun, publisherEarning } from '@limelight/widgets/run';
import { monthKey } from '../api/months';
import type { Db } from '../db/types';
import { addEntry } from '../payments/ledger';
import type { JobRow } from './envelope';
import type { JobEvents } from './events';

// Ending a job: the status, the charge to the owner's credit ledger, the publisher's share, the
// usage counters and the webhook delivery, all in ONE transaction (docs/jobs.md: metering). If
// anything fails nothing is written and the lease expiry hands the job to recovery.

export type FinalStatus = 'FINISHED' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';

export interface Outcome {
  status: FinalStatus;
  result?: unknown;
  error?: { code: string; message: string } | null;
  message?: string | null;
}

/** GPU time is billed when the run used it to the end or until the owner or the limit stopped it. */
const CHARGED: readonly FinalStatus[] = ['FINISHED', 'TIMEOUT', 'CANCELLED'];

export async function finishJob(
  db: Db,
  events: JobEvents,
  job: JobRow,
  workerId: string,
  outcome: Outcome,
  retentionHours: number,
): Promise<JobRow | undefined> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const gpuSeconds = job.started_at ? Math.max(0, (now.getTime() - new Date(job.started_at).getTime()) / 1000) : 0;
    const charged = CHARGED.includes(outcome.status) && job.started_at !== null;
    const cost = charged ? creditsForRun(gpuSeconds, Number(job.price_per_s_usd)) : 0;
    const expires = new Date(now.getTime() + retentionHours * 3600_000);

    const updated = await sql<JobRow>`
      WITH u AS (
        UPDATE jobs SET
          status = ${outcome.status},
          result = ${outcome.result === undefined || outcome.result === null ? null : JSON.stringify(outcome.result)}::jsonb,
          error = ${outcome.error ? JSON.stringify(outcome.error) : null}::jsonb,
          message = ${outcome.message ?? null},
          progress = ${outcome.status === 'FINISHED' ? 1 : sql`progress`},
          finished_at = ${now},
          output_expires_at = ${expires},
          gpu_seconds = ${charged ? gpuSeconds : null},
          cost_credits = ${cost},
          worker_id = NULL,
          lease_until = NULL,
          version = version + 1
        WHERE id = ${job.id} AND worker_id = ${workerId} AND status = 'PROCESSING'
        RETURNING *
      )
      SELECT u.*, ${events.changed()}, ${events.queued()} FROM u`.execute(trx);
    const row = updated.rows[0];
    // Lost the lease (recovery took the job): another attempt owns it now, nothing to write.
    if (!row) return undefined;

    const service = await trx.selectFrom('models').select(['created_by', 'is_public']).where('id', '=', job.service_id).executeTakeFirst();
    if (cost > 0) {
      await addEntry(trx, {
        userId: job.user_id,
        amount: -cost,
        kind: 'usage',
        description: `Run of ${job.service_id} ${job.endpoint}: ${gpuSeconds.toFixed(2)} GPU seconds`,
        reference: `job:${job.id}`,
      });
      const publisher = service?.created_by;
      const earning = publisherEarning(cost);
      if (service?.is_public && publisher && publisher !== job.user_id && earning > 0) {
        await addEntry(trx, {
          userId: publisher,
          amount: earning,
          kind: 'earning',
          description: `Share of a run of ${job.service_id}`,
          reference: `job:${job.id}:earning`,
        });
      }
    }
    if (charged) {
      await trx
        .insertInto('api_usage')
        .values({ user_id: job.user_id, month: monthKey(now), calls: 1 })
        .onConflict((oc) => oc.columns(['user_id', 'month']).doUpdateSet((eb) => ({ calls: eb('api_usage.calls', '+', 1) })))
        .execute();
      await trx
        .updateTable('models')
        .set((eb) => ({ n_usages: eb('n_usages', '+', 1) }))
        .where('id', '=', job.service_id)
        .execute();
    }
    await trx.updateTable('stored_files').set({ expires_at: expires }).where('job_id', '=', job.id).execute();
    if (job.webhook_url) {
      await trx.insertInto('webhook_deliveries').values({ job_id: job.id, user_id: job.user_id, url: job.webhook_url }).execute();
    }
    return row;
  });
}
