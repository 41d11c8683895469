import type { Db } from '../db/types';

// The SQL of the per-service API: a service (not deleted) with what its document needs.

export function selectServiceForDocument(db: Db, serviceId: string) {
  return db
    .selectFrom('models')
    .select(['id', 'display_name', 'model_desc', 'is_public', 'created_by', 'endpoints'])
    .where('id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
