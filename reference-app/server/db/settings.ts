import type { Db } from './types';

// The `settings` table: server-wide values kept across restarts (the publishable key).

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
