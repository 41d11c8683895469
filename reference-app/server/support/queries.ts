import type { Db } from '../db/types';

// The support feature's SQL: newsletter options and subscriptions, tickets and attachments.

export function selectOptions(db: Db) {
  return db.selectFrom('newsletter_options').selectAll().orderBy('id').execute();
}

export async function optionNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await db.selectFrom('newsletter_options').select(['id', 'display_value']).where('id', 'in', ids).execute() : [];
  return new Map(rows.map((r) => [r.id, r.display_value]));
}

export function selectSubscriptionsOf(db: Db, email: string) {
  return db.selectFrom('newsletter_subscriptions').select(['option_id', 'confirmed_at']).where('email', '=', email).execute();
}

/** Pending rows (confirmed_at null); rows that exist keep their state. */
export function insertPendingSubscriptions(db: Db, email: string, optionIds: number[]) {
  return db
    .insertInto('newsletter_subscriptions')
    .values(optionIds.map((option_id) => ({ email, option_id, confirmed_at: null })))
    .onConflict((oc) => oc.columns(['email', 'option_id']).doNothing())
    .execute();
}

/** Marks the options confirmed (creating rows an unsubscribe removed meanwhile); returns those newly confirmed. */
export async function confirmSubscriptions(db: Db, email: string, optionIds: number[]): Promise<number[]> {
  if (!optionIds.length) return [];
  const rows = await db
    .insertInto('newsletter_subscriptions')
    .values(optionIds.map((option_id) => ({ email, option_id, confirmed_at: new Date() })))
    .onConflict((oc) =>
      oc
        .columns(['email', 'option_id'])
        .doUpdateSet({ confirmed_at: new Date() })
        .where('newsletter_subscriptions.confirmed_at', 'is', null),
    )
    .returning('option_id')
    .execute();
  return rows.map((r) => r.option_id).sort((a, b) => a - b);
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
