import { sql } from 'kysely';
import type { Db } from '../db/types';

// The SQL of stored media: how much a user keeps (media/storageQuota.ts; the plan comes from payments).

/** Bytes of the user's stored files that have not expired. */
export async function storedBytesOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('stored_files')
    .select(sql<string>`coalesce(sum(size), 0)`.as('used'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirstOrThrow();
  return Number(row.used);
}

/** What a service's designed cover is drawn from (media/coverRoutes.ts); undefined for none or a deleted one. */
export function selectCoverSubject(db: Db, id: string) {
  return db
    .selectFrom('models')
    .select(['id', 'display_name', 'model_category', 'is_public'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
