import type { Db } from '../db/types';

// service_secrets (migration 020). Only sealedValuesOf reads the sealed values, for the runner;
// every other query answers names and times.

export function selectSecretNames(db: Db, serviceId: string) {
  return db
    .selectFrom('service_secrets')
    .select(['name', 'created_at', 'updated_at'])
    .where('model_id', '=', serviceId)
    .orderBy('name')
    .execute();
}

export async function countSecrets(db: Db, serviceId: string): Promise<number> {
  const row = await db
    .selectFrom('service_secrets')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('model_id', '=', serviceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function secretExists(db: Db, serviceId: string, name: string) {
  return db.selectFrom('service_secrets').select('name').where('model_id', '=', serviceId).where('name', '=', name).executeTakeFirst();
}

export function upsertSecret(db: Db, serviceId: string, name: string, sealed: string, now: Date) {
  return db
    .insertInto('service_secrets')
    .values({ model_id: serviceId, name, value_sealed: sealed, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['model_id', 'name']).doUpdateSet({ value_sealed: sealed, updated_at: now }))
    .returning(['name', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
}

export function deleteSecretRow(db: Db, serviceId: string, name: string) {
  return db.deleteFrom('service_secrets').where('model_id', '=', serviceId).where('name', '=', name).returning('name').executeTakeFirst();
}

/** The sealed values of a service's secrets: for the runner that starts its containers, nothing else. */
export function sealedValuesOf(db: Db, serviceId: string) {
  return db
    .selectFrom('service_secrets')
    .select(['name', 'value_sealed', 'updated_at'])
    .where('model_id', '=', serviceId)
    .orderBy('name')
    .execute();
}

/** Records the fingerprint of the secrets a deploy gave the service (migration 020). */
export async function setSecretsDeployed(db: Db, serviceId: string, fingerprint: string): Promise<void> {
  await db.updateTable('service_runtimes').set({ secrets_deployed: fingerprint }).where('model_id', '=', serviceId).execute();
}

/** Who owns a live (not deleted) service, and whether others see it. */
export function selectServiceAccess(db: Db, serviceId: string) {
  return db
    .selectFrom('models')
    .select(['created_by', 'is_public'])
    .where('id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
