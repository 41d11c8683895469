import { type Insertable, type Selectable, type Updateable } from 'kysely';
import type { CheckoutSessionsTable, Db, SubscriptionsTable } from '../db/types';

// The SQL of payments: plans, the credit ledger, refund cases, checkouts and subscriptions.

export function selectPlans(db: Db) {
  return db.selectFrom('plans').selectAll().orderBy('sort_idx').execute();
}

export function selectPlan(db: Db, key: string) {
  return db.selectFrom('plans').selectAll().where('key', '=', key).executeTakeFirst();
}

// The credit ledger (ledger.ts): one row per change of a user's credits.

/** The sum of the user's entries, kept by the ledger's triggers (migration 013). */
export async function selectBalance(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('credit_balances').select('balance').where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.balance ?? 0);
}

export function selectLedgerEntries(db: Db, userId: string, limit: number) {
  return db
    .selectFrom('credit_ledger')
    .select(['id', 'amount', 'kind', 'description', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertLedgerEntry(
  db: Db,
  values: { user_id: string; amount: number; kind: string; description: string; reference: string | null; created_at?: Date },
) {
  await db.insertInto('credit_ledger').values(values).execute();
}

/** The sign-up bonus row, once per user (a partial unique index guards against doubles). */
export async function insertSignUpBonus(db: Db, values: { user_id: string; amount: number; created_at?: Date }) {
  await db
    .insertInto('credit_ledger')
    .values({ ...values, kind: 'sign_up_bonus', description: 'Sign-up bonus' })
    .onConflict((oc) => oc.column('user_id').where('kind', '=', 'sign_up_bonus').doNothing())
    .execute();
}

// Refund cases (refundCases.ts).

/** Records the case once per checkout and answers the stored row. */
export async function upsertRefundCase(
  db: Db,
  checkout: Selectable<CheckoutSessionsTable>,
  payment: { providerRef: string | null; subscriptionRef: string | null; reason: string },
) {
  await db
    .insertInto('payment_refund_cases')
    .values({
      checkout_id: checkout.id,
      user_id: checkout.user_id,
      provider: checkout.provider,
      provider_ref: payment.providerRef ?? checkout.provider_ref,
      subscription_ref: payment.subscriptionRef,
      amount_minor: checkout.amount_minor,
      currency: checkout.currency,
      reason: payment.reason,
    })
    .onConflict((oc) => oc.column('checkout_id').doNothing())
    .execute();
  return db.selectFrom('payment_refund_cases').selectAll().where('checkout_id', '=', checkout.id).executeTakeFirstOrThrow();
}

// Checkouts and subscriptions (service.ts).

export type NewCheckout = Insertable<CheckoutSessionsTable>;
export type SubscriptionValues = Omit<Insertable<SubscriptionsTable>, 'user_id'>;

export function selectCheckout(db: Db, id: string) {
  return db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertCheckout(db: Db, row: NewCheckout) {
  return db.insertInto('checkout_sessions').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Completed checkouts (payments and plan changes), newest first. */
export function selectReceipts(db: Db, userId: string, limit = 200) {
  return db
    .selectFrom('checkout_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'complete')
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Marks the user's open subscription checkouts as superseded by `id`. */
export async function supersedeOpenSubscriptionCheckouts(db: Db, userId: string, id: string) {
  await db
    .updateTable('checkout_sessions')
    .set({ status: 'expired', superseded_by: id })
    .where('user_id', '=', userId)
    .where('purpose', '=', 'subscription')
    .where('status', '=', 'open')
    .execute();
}

/** Completes the checkout if it is still open; undefined when it was not. */
export function completeOpenCheckout(db: Db, id: string, providerRef: string | null) {
  return db
    .updateTable('checkout_sessions')
    .set({ status: 'complete', completed_at: new Date(), ...(providerRef ? { provider_ref: providerRef } : {}) })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

/** Expires the checkout if it is still open; whether it was. */
export async function expireOpenCheckout(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('checkout_sessions')
    .set({ status: 'expired' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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

export function selectSubscription(db: Db, userId: string) {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The user's subscription, locked until the transaction ends. */
export function selectSubscriptionForUpdate(db: Db, userId: string) {
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();
}

export async function upsertSubscription(db: Db, userId: string, values: SubscriptionValues) {
  await db
    .insertInto('subscriptions')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

export function updateSubscription(db: Db, userId: string, values: Updateable<SubscriptionsTable>) {
  return db.updateTable('subscriptions').set(values).where('user_id', '=', userId).returningAll().executeTakeFirstOrThrow();
}

export async function updateSubscriptionByProviderRef(db: Db, providerRef: string, values: Updateable<SubscriptionsTable>) {
  await db.updateTable('subscriptions').set(values).where('provider_ref', '=', providerRef).execute();
}
