import type { Db } from '../db/types';

// The support feature's SQL: newsletter options and subscriptions, tickets and attachments.

export function selectOptions(db: Db) {
  return db.selectFrom('newsletter_options').selectAll().orderBy('id').execute();
}

export async function optionNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await db.selectFrom('newsletter_options').select(['id', 'display_value']).where('id', 'in', ids).execute() : [];
  return new Map(rows.map((r) => [r.id, r.display_value]));
}

export function insertSubscriptions(db: Db, email: string, optionIds: number[]) {
  return db
    .insertInto('newsletter_subscriptions')
    .values(optionIds.map((option_id) => ({ email, option_id })))
    .onConflict((oc) => oc.columns(['email', 'option_id']).doNothing())
    .returning('option_id')
    .execute();
}

/** Removes the address from the given options, or from all with an empty list. */
export function deleteSubscriptions(db: Db, email: string, optionIds: number[]) {
  let query = db.deleteFrom('newsletter_subscriptions').where('email', '=', email);
  if (optionIds.length) query = query.where('option_id', 'in', optionIds);
  return query.returning('option_id').execute();
}

export function selectUserEmail(db: Db, userId: string) {
  return db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
}
