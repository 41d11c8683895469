import { sql } from 'kysely';
import type { Db } from '../db/types';

// The SQL of stored media: how much a user keeps and under which plan (media/storageQuota.ts).

/** The plan of the user's active subscription, `free` without one. */
export async function planOf(db: Db, userId: string): Promise<string> {
  const row = await db
    .selectFrom('subscriptions')
    .select('plan_type')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.plan_type ?? 'free';
}

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
