import type { Db } from '../db/types';

/** The e-mail of a stored user (their registry handle's readable part), or undefined. */
export async function selectUserEmail(db: Db, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select(['email']).where('id', '=', userId).executeTakeFirst())?.email;
}

/** The user's container services (not deleted) with the image each is saved with (registry/images.ts). */
export function selectContainerImagesOf(db: Db, userId: string) {
  return db
    .selectFrom('models')
    .innerJoin('service_runtimes', 'service_runtimes.model_id', 'models.id')
    .select(['models.id', 'models.display_name', 'service_runtimes.image'])
    .where('models.created_by', '=', userId)
    .where('models.deleted_at', 'is', null)
    .where('service_runtimes.type', '=', 'container')
    .execute();
}
