import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { CheckoutSessionsTable, Db, SubscriptionsTable } from '../db/types';
import { PUBLISHER_SHARE } from '@limelight/rules';
import { PLAN_CONCURRENCY } from './plans';

// The SQL of payments: plans, the credit ledger, refund cases, checkouts and subscriptions, and
// the parts of the job queue's statements that read or book credits and plans.

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

// The job queue's credits and plans: the queue keeps each change of a job and its credits in ONE
// statement (jobs/sql/), but what a hold is checked against, what a run collects, the publisher's
// share and a plan's concurrency are payments' rules, so their SQL is written here, for the
// queue's statements to include.

/**
 * The user's balance and open holds (`balance`, `reserved`), read after taking the user's create
 * lock so parallel creates of one user are checked one after the other (`job_funds`, migration 012).
 */
export const jobFundsSql = (userId: string) => sql<{ balance: string; reserved: string }>`job_funds(${userId}::uuid)`;

/**
 * CTEs (`balances`, `collected`, `usage`, `earning`) that charge the jobs of `ended` (a CTE of the
 * statement with ord, id, user_id, service_id, cost_credits, usage_description): each owner is
 * charged in `ord` order, each job at most what the balance still holds after the ones before
 * (never below zero), and the publisher of a public service someone else ran gets its share of
 * what was actually collected, rounded down to the ledger's 4 decimals (@limelight/rules,
 * publisherEarning). A job's hold is released by its status, not here.
 */
export function jobChargeCtes(ended: string) {
  const e = sql.table(ended);
  return sql`balances AS (
      SELECT user_id, greatest(balance, 0) AS balance FROM credit_balances
      WHERE user_id IN (SELECT user_id FROM ${e} WHERE cost_credits > 0)
    ), collected AS (
      SELECT e.id, e.user_id, e.service_id, e.usage_description,
        least(e.cost_credits, greatest(b.balance - coalesce(sum(e.cost_credits) OVER (PARTITION BY e.user_id ORDER BY e.ord
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0), 0)) AS credits
      FROM ${e} e JOIN balances b ON b.user_id = e.user_id WHERE e.cost_credits > 0
    ), usage AS (
      INSERT INTO credit_ledger (user_id, amount, kind, description, reference)
      SELECT user_id, -credits, 'usage', usage_description, 'job:' || id FROM collected WHERE credits > 0
    ), earning AS (
      INSERT INTO credit_ledger (user_id, amount, kind, description, reference)
      SELECT m.created_by, floor(c.credits * ${PUBLISHER_SHARE} * 10000 + 1e-9) / 10000, 'earning',
        'Share of a run of ' || c.service_id, 'job:' || c.id || ':earning'
      FROM collected c JOIN models m ON m.id = c.service_id
      WHERE m.is_public AND m.created_by IS NOT NULL AND m.created_by <> c.user_id
        AND floor(c.credits * ${PUBLISHER_SHARE} * 10000 + 1e-9) > 0
    )`;
}

/**
 * SQL for the plan concurrency of the user in `userColumn` (a column of the statement it goes
 * in), from their active subscription; free without one.
 */
export function planConcurrencySql(userColumn: string) {
  const cases = Object.entries(PLAN_CONCURRENCY)
    .filter(([plan]) => plan !== 'free')
    .map(([plan, limit]) => `WHEN '${plan}' THEN ${limit}`)
    .join(' ');
  return sql.raw(
    `(CASE (SELECT s.plan_type FROM subscriptions s WHERE s.user_id = ${userColumn} AND s.status = 'active' LIMIT 1) ${cases} ELSE ${PLAN_CONCURRENCY.free} END)`,
  );
}
