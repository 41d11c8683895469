import { sql } from 'kysely';
import type { Insertable, Updateable } from 'kysely';
import type { Db, ModelsTable, ServiceRuntimesTable, ServiceVersionsTable } from '../db/types';
import { stopHosting } from '../hosting/queries';

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
      'service_runtimes.port',
      'service_runtimes.health_path',
      'service_runtimes.concurrency',
      'service_runtimes.cpu',
      'service_runtimes.memory_mb',
      'service_runtimes.gpu_count',
      'service_runtimes.snapshot',
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

/** The instances the user's live container services ask for together, but for `except` (hosting quotas). */
export async function sumContainerInstances(
  db: Db,
  userId: string,
  except: string,
): Promise<{ minInstances: number; maxInstances: number }> {
  const row = await db
    .selectFrom('service_runtimes')
    .innerJoin('models', 'models.id', 'service_runtimes.model_id')
    .select([
      sql<string>`coalesce(sum(service_runtimes.min_instances), 0)`.as('min'),
      sql<string>`coalesce(sum(service_runtimes.max_instances), 0)`.as('max'),
    ])
    .where('models.created_by', '=', userId)
    .where('models.deleted_at', 'is', null)
    .where('service_runtimes.type', '=', 'container')
    .where('models.id', '!=', except)
    .executeTakeFirstOrThrow();
  return { minInstances: Number(row.min), maxInstances: Number(row.max) };
}

/** Serialises one user's hosting-quota checks until the transaction ends (every process). */
export async function lockHostingQuota(db: Db, userId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext('limelight hosting quota'), hashtext(${userId}))`.execute(db);
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
  await stopHosting(db, id);
  // Its secrets go with it (docs/security.md, "Secrets at rest"): nothing runs with them any more.
  await db.deleteFrom('service_secrets').where('model_id', '=', id).execute();
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

/**
 * How many of the owner's live private services come before this one, oldest first (creation
 * time, then id): the order a plan's private-service allowance is given in after a downgrade.
 */
export async function privateServicesBefore(db: Db, userId: string, id: string): Promise<number> {
  const row = await sql<{ n: string | number }>`
    SELECT count(*) AS n FROM models m, models this
    WHERE this.id = ${id} AND m.created_by = ${userId} AND m.is_public = false AND m.deleted_at IS NULL
      AND (m.created_at, m.id) < (this.created_at, this.id)`.execute(db);
  return Number(row.rows[0]?.n ?? 0);
}

export async function insertService(db: Db, values: Insertable<ModelsTable>) {
  await db.insertInto('models').values(values).execute();
}

export async function updateServiceColumns(db: Db, id: string, columns: Updateable<ModelsTable>) {
  await db
    .updateTable('models')
    .set({ ...columns, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function upsertRuntime(db: Db, id: string, values: Omit<Insertable<ServiceRuntimesTable>, 'model_id'>) {
  await db
    .insertInto('service_runtimes')
    .values({ model_id: id, ...values })
    .onConflict((oc) => oc.column('model_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
    .execute();
}

export async function deleteRuntime(db: Db, id: string) {
  await db.deleteFrom('service_runtimes').where('model_id', '=', id).execute();
}

export async function setLastHealth(db: Db, id: string, health: unknown) {
  await db
    .updateTable('service_runtimes')
    .set({ last_health: JSON.stringify(health) })
    .where('model_id', '=', id)
    .execute();
}

// ---- Versions (docs/publishing.md, "Versions and rollback"; migration 021).

/** The image of the service's newest version, if it has one. */
export async function selectNewestVersionImage(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('service_versions')
    .select('image')
    .where('model_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.image;
}

export async function insertVersion(db: Db, row: Insertable<ServiceVersionsTable>) {
  await db.insertInto('service_versions').values(row).execute();
}

/** The service's versions newest first, with the e-mail address of who deployed each; `before`: ids below it only. */
export function selectVersions(db: Db, id: string, page: { limit?: number; before?: string } = {}) {
  let query = db
    .selectFrom('service_versions')
    .leftJoin('users', 'users.id', 'service_versions.deployed_by')
    .select([
      'service_versions.id',
      'service_versions.image',
      'service_versions.digest',
      'service_versions.kind',
      'service_versions.deployed_at',
      'service_versions.deployed_by',
      'service_versions.outcome',
      'service_versions.outcome_message',
      'users.email',
    ])
    .where('service_versions.model_id', '=', id)
    .orderBy('service_versions.id', 'desc');
  if (page.before !== undefined) query = query.where('service_versions.id', '<', page.before);
  if (page.limit !== undefined) query = query.limit(page.limit);
  return query.execute();
}

/** The ids of the service's newest version and of the one that serves (the newest whose rollout succeeded). */
export async function selectVersionLandmarks(db: Db, id: string): Promise<{ newest: string | null; current: string | null }> {
  const row = await sql<{ newest: string | null; current: string | null }>`
    SELECT max(id)::text AS newest, max(id) FILTER (WHERE outcome = 'succeeded')::text AS current
    FROM service_versions WHERE model_id = ${id}`.execute(db);
  return row.rows[0] ?? { newest: null, current: null };
}

/**
 * Credits the owner earned from other users' runs of the service: the jobs' `earning` ledger rows,
 * plus the seeded history's (`seed:earning:<service>:<month>`, seed/earnings.ts).
 */
export async function selectEarnings(db: Db, id: string, userId: string): Promise<number> {
  const row = await sql<{ total: number | null }>`
    SELECT COALESCE(SUM(l.amount), 0) AS total
    FROM credit_ledger l LEFT JOIN jobs j ON l.reference = 'job:' || j.id::text || ':earning'
    WHERE l.user_id = ${userId} AND l.kind = 'earning'
      AND (j.service_id = ${id} OR l.reference LIKE ${`seed:earning:${id.replace(/[\\%_]/g, '\\$&')}:%`})`.execute(db);
  return Number(row.rows[0]?.total ?? 0);
}

/** Serialises private-service limit checks of one user, until the transaction ends (every process). */
export async function lockPrivateServices(db: Db, userId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext('limelight private services'), hashtext(${userId}))`.execute(db);
}

/** Serialises service-name claims, until the transaction ends (every process). */
export async function lockServiceNames(db: Db) {
  await sql`SELECT pg_advisory_xact_lock(hashtext('limelight service names'))`.execute(db);
}

/** A live service addressed by this name (its display name, or its id without one), ignoring case and spaces. */
export function serviceNamed(db: Db, name: string, except?: string) {
  let query = db
    .selectFrom('models')
    .select('id')
    .where('deleted_at', 'is', null)
    .where(sql<string>`lower(btrim(coalesce(display_name, id)))`, '=', name.trim().toLowerCase());
  if (except) query = query.where('id', '!=', except);
  return query.executeTakeFirst();
}

/** The e-mail address and name a publisher's handles come from. */
export function handleSourcesOf(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select(['users.email', 'profiles.full_name'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** The service's endpoints, to know whether they must be imported from the image. */
export function selectServiceEndpoints(db: Db, serviceId: string) {
  return db.selectFrom('models').select('endpoints').where('id', '=', serviceId).executeTakeFirst();
}

/** Stores imported endpoints, only while the service still has none (an owner's save wins). */
export async function fillEmptyEndpoints(db: Db, serviceId: string, endpoints: unknown[]): Promise<void> {
  await db
    .updateTable('models')
    .set({ endpoints: JSON.stringify(endpoints), updated_at: sql`now()` })
    .where('id', '=', serviceId)
    .where(sql<boolean>`jsonb_array_length(endpoints) = 0`)
    .execute();
}
