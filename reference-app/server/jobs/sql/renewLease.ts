import { sql } from 'kysely';
import type { Db } from '../../db/types';

// The heartbeat of a running job: its worker extends the lease (jobs whose lease passes are
// recovered, recoverAbandoned.ts) and learns whether the owner asked to cancel.

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
