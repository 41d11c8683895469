import { sql } from 'kysely';
import type { Db } from '../db/types';

// The credit ledger: every change of a user's credits is one row; the balance is their sum,
// never a stored counter, so concurrent purchases cannot overwrite each other.

/** product-rules §3/§9: the sign-up bonus, the first entry of every ledger. */
export const SIGN_UP_BONUS = 500;

export type LedgerKind = 'sign_up_bonus' | 'purchase' | 'usage' | 'payout' | 'earning' | 'adjustment';

export async function balanceOf(q: Db, userId: string): Promise<number> {
  const row = await q
    .selectFrom('credit_ledger')
    .select(sql<number>`coalesce(sum(amount), 0)`.as('balance'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

export function entriesOf(q: Db, userId: string, limit = 500) {
  return q
    .selectFrom('credit_ledger')
    .select(['id', 'amount', 'kind', 'description', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function addEntry(
  trx: Db,
  entry: { userId: string; amount: number; kind: LedgerKind; description: string; reference?: string | null; createdAt?: Date },
): Promise<void> {
  await trx
    .insertInto('credit_ledger')
    .values({
      user_id: entry.userId,
      amount: entry.amount,
      kind: entry.kind,
      description: entry.description,
      reference: entry.reference ?? null,
      ...(entry.createdAt ? { created_at: entry.createdAt } : {}),
    })
    .execute();
}

/** The bonus entry, once per user (a partial unique index guards against doubles). */
export async function grantSignUpBonus(trx: Db, userId: string, createdAt?: Date): Promise<void> {
  await trx
    .insertInto('credit_ledger')
    .values({
      user_id: userId,
      amount: SIGN_UP_BONUS,
      kind: 'sign_up_bonus',
      description: 'Sign-up bonus',
      ...(createdAt ? { created_at: createdAt } : {}),
    })
    .onConflict((oc) => oc.column('user_id').where('kind', '=', 'sign_up_bonus').doNothing())
    .execute();
}
