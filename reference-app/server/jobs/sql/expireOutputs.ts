import { sql } from 'kysely';
import type { Db } from '../../db/types';

// Results past their retention (docs/jobs.md, "Retention"), swept by the housekeeping loop.

/** Clears results past their retention (the job record itself stays; files expire in files.ts). */
export async function expireOutputs(db: Db): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ result: sql`NULL` as never, result_bytes: null })
    .where('output_expires_at', '<', new Date())
    .where('result', 'is not', null)
    .execute();
}
