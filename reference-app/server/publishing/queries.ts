import { sql } from 'kysely';
import type { Db } from '../db/types';
import type { LoadRunnable, RunnableService } from '../runtimes/registry';

// The SQL of publishing: services (rows of `models`) with their runtime configuration.

export function selectService(db: Db, id: string) {
  return db
    .selectFrom('models')
    .leftJoin('service_runtimes', 'service_runtimes.model_id', 'models.id')
    .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
    .select([
      'models.id',
      'models.display_name',
      'models.model_desc',
      'models.display_img_url',
      'models.model_category',
      'models.used_models',
      'models.is_public',
      'models.status',
      'models.endpoints',
      'models.created_by',
      'models.n_usages',
      'models.created_at',
      'models.updated_at',
      'service_runtimes.type as runtime_type',
      'service_runtimes.base_url',
      'service_runtimes.header_names',
      'service_runtimes.headers_sealed',
      'service_runtimes.image',
      'service_runtimes.registry_credential_id',
      'service_runtimes.gpu',
      'service_runtimes.min_instances',
      'service_runtimes.max_instances',
      'service_runtimes.idle_timeout_s',
      'service_runtimes.last_health',
      'model_hosting.status as deployment_status',
    ])
    .where('models.id', '=', id)
    .where('models.deleted_at', 'is', null);
}

export type ServiceRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectService>['executeTakeFirst']>>>;

export function selectOwnServiceIds(db: Db, userId: string) {
  return db
    .selectFrom('models')
    .select('id')
    .where('created_by', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function countPrivateServices(db: Db, userId: string, except?: string) {
  let query = db
    .selectFrom('models')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('created_by', '=', userId)
    .where('is_public', '=', false)
    .where('deleted_at', 'is', null);
  if (except) query = query.where('id', '!=', except);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The plan of the user's active subscription, `free` without one. */
export async function activePlanOf(db: Db, userId: string): Promise<string> {
  const row = await db
    .selectFrom('subscriptions')
    .select('plan_type')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.plan_type ?? 'free';
}

export async function unknownCategories(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const known = await db.selectFrom('model_categories').select('id').where('id', 'in', ids).execute();
  const found = new Set(known.map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

export async function gpuExists(db: Db, id: string) {
  return (await db.selectFrom('pricing_servers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function credentialOwnedBy(db: Db, id: string, userId: string) {
  return (
    (await db.selectFrom('registry_credentials').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()) !==
    undefined
  );
}

export async function ownerName(db: Db, userId: string) {
  const row = await db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select(['users.email', 'profiles.full_name'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row?.full_name?.trim() || row?.email?.split('@')[0] || null;
}

export async function softDeleteService(db: Db, id: string) {
  await db
    .updateTable('models')
    .set({ deleted_at: new Date(), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
  await db
    .updateTable('model_hosting')
    .set({ status: 'stopped', updated_at: sql`now()` })
    .where('model_id', '=', id)
    .execute();
}

/** A service as the job queue needs it: endpoints and how it runs. Deleted services are gone. */
export function selectRunnableService(db: Db, id: string) {
  return db
    .selectFrom('models')
    .leftJoin('service_runtimes', 'service_runtimes.model_id', 'models.id')
    .select([
      'models.id',
      'models.provider',
      'models.model_category',
      'models.endpoints',
      'models.is_public',
      'models.created_by',
      'models.status',
      'service_runtimes.type as runtime_type',
      'service_runtimes.base_url',
      'service_runtimes.headers_sealed',
    ])
    .where('models.id', '=', id)
    .where('models.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The loader the job system receives (runtimes/registry.ts): jobs never read these tables. */
export const runnableServiceLoader =
  (db: Db): LoadRunnable =>
  async (id) =>
    (await selectRunnableService(db, id)) as RunnableService | undefined;

/** Records what the fleet reported about a service's container deployment. */
export async function setDeploymentStatus(db: Db, id: string, status: string) {
  await db
    .updateTable('model_hosting')
    .set({ status, updated_at: sql`now()` })
    .where('model_id', '=', id)
    .execute();
}
