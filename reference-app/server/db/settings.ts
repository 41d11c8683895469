import type { Db } from './types';

// The `settings` table: server-wide values kept across restarts (the auth keys, auth/apiKeys.ts).

/** The stored value of `key`, storing `candidate` first when there is none (the first writer wins). */
export async function settingOrInsert(db: Db, key: string, candidate: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}

/** The stored values of `keys` (missing ones absent), without storing anything. */
export async function settingValues(db: Db, keys: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', keys).execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}
