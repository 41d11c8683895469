import type { Db } from '../db/types';

// The profile feature's SQL: profiles, API keys, monthly API usage, registry credentials.

export const PROFILE_FIELDS = [
  'full_name',
  'street',
  'number',
  'address_extra',
  'zip_code',
  'city',
  'country_code',
  'mobile',
  'date_of_birth',
  'profile_picture_url',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

export function insertProfile(trx: Db, userId: string) {
  return trx
    .insertInto('profiles')
    .values({ user_id: userId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export function selectProfile(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .leftJoin('profiles', 'profiles.user_id', 'users.id')
    .select([
      'users.id',
      'users.email',
      'profiles.user_id as profile_user',
      ...PROFILE_FIELDS.map((field) => `profiles.${field}` as const),
      'profiles.dt_created',
      'profiles.terms_accepted',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

export function selectSignUpBonus(db: Db, userId: string) {
  return db
    .selectFrom('credit_ledger')
    .select('amount')
    .where('user_id', '=', userId)
    .where('kind', '=', 'sign_up_bonus')
    .executeTakeFirst();
}

export function markTermsAccepted(db: Db, userId: string) {
  return db
    .updateTable('profiles')
    .set({ terms_accepted: true, terms_accepted_at: new Date(), updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('terms_accepted', '=', false)
    .execute();
}

export function updateProfileFields(db: Db, userId: string, patch: Partial<Record<ProfileField, string | null>>) {
  return db
    .updateTable('profiles')
    .set({ ...patch, updated_at: new Date() })
    .where('user_id', '=', userId)
    .execute();
}

export function selectApiKeys(db: Db, userId: string) {
  return db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
}

export async function countApiKeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertApiKey(
  db: Db,
  values: { user_id: string; key_hash: string; display_value: string; name: string; expiration_date: Date },
) {
  return db.insertInto('api_keys').values(values).returningAll().executeTakeFirstOrThrow();
}

export function deleteApiKeyRow(db: Db, userId: string, id: string) {
  return db.deleteFrom('api_keys').where('id', '=', id).where('user_id', '=', userId).returning('id').executeTakeFirst();
}

/** The key with this hash and its owner's address. */
export function selectApiKeyByHash(db: Db, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.user_id', 'api_keys.expiration_date', 'users.email'])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function setApiKeyLastUsed(db: Db, id: string, at: Date) {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** One more API call in the user's month. */
export async function incrementApiUsage(db: Db, userId: string, month: string) {
  await db
    .insertInto('api_usage')
    .values({ user_id: userId, month, calls: 1 })
    .onConflict((oc) => oc.columns(['user_id', 'month']).doUpdateSet((eb) => ({ calls: eb('api_usage.calls', '+', 1) })))
    .execute();
}

export function selectUsageSince(db: Db, userId: string, firstMonth: string) {
  return db.selectFrom('api_usage').select(['month', 'calls']).where('user_id', '=', userId).where('month', '>=', firstMonth).execute();
}

export function selectCredentials(db: Db, userId: string) {
  return db.selectFrom('registry_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export function findCredentialId(db: Db, userId: string, platform: string, alias: string) {
  return db
    .selectFrom('registry_credentials')
    .select('id')
    .where('user_id', '=', userId)
    .where('platform', '=', platform)
    .where('credential_alias', '=', alias)
    .executeTakeFirst();
}

export async function countCredentials(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('registry_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function upsertCredential(
  db: Db,
  key: { user_id: string; platform: string; credential_alias: string },
  values: { foreign_username: string; pat_enc: string; pat_last4: string; registry: string; updated_at: Date },
) {
  return db
    .insertInto('registry_credentials')
    .values({ ...key, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'platform', 'credential_alias']).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function deleteCredentialRow(db: Db, userId: string, id: string) {
  return db.deleteFrom('registry_credentials').where('id', '=', id).where('user_id', '=', userId).returning('id').executeTakeFirst();
}

/** A credential with its sealed token, for a container deployment that pulls a private image. */
export function selectSealedCredential(db: Db, id: string) {
  return db
    .selectFrom('registry_credentials')
    .select(['platform', 'foreign_username', 'pat_enc', 'registry'])
    .where('id', '=', id)
    .executeTakeFirst();
}
