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

/**
 * Bytes of the memory snapshots the user's container services keep on their runners (model_hosting,
 * as the runners report them; docs/deploy.md, "Snapshot cold starts"): counted in the same quota.
 */
export async function snapshotBytesOf(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('model_hosting')
    .innerJoin('models', 'models.id', 'model_hosting.model_id')
    .select(sql<string>`coalesce(sum(model_hosting.snapshot_bytes), 0)`.as('used'))
    .where('models.created_by', '=', userId)
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

/**
 * The categories' titles a cover may name. Read here rather than through the catalogue's queries:
 * the catalogue's descriptors import media (covers.ts), so media importing the catalogue would
 * close a folder loop (docs/architecture.md, "Server layers").
 */
export function selectCategoryTitles(db: Db) {
  return db.selectFrom('model_categories').select(['id', 'title']).execute();
}
