import type { Db } from '../db/types';
import { insertLedgerEntry, insertSignUpBonus, selectBalance, selectLedgerEntries } from './queries';

// The credit ledger: every change of a user's credits is one row; the balance is their sum,
// never a stored counter, so concurrent purchases cannot overwrite each other.

/** product-rules §3/§9: the sign-up bonus, the first entry of every ledger. */
export const SIGN_UP_BONUS = 500;

export type LedgerKind = 'sign_up_bonus' | 'purchase' | 'usage' | 'payout' | 'earning' | 'adjustment';

export const balanceOf = (db: Db, userId: string): Promise<number> => selectBalance(db, userId);

export const entriesOf = (db: Db, userId: string, limit = 500) => selectLedgerEntries(db, userId, limit);

export async function addEntry(
  db: Db,
  entry: { userId: string; amount: number; kind: LedgerKind; description: string; reference?: string | null; createdAt?: Date },
): Promise<void> {
  await insertLedgerEntry(db, {
    user_id: entry.userId,
    amount: entry.amount,
    kind: entry.kind,
    description: entry.description,
    reference: entry.reference ?? null,
    ...(entry.createdAt ? { created_at: entry.createdAt } : {}),
  });
}

/** The bonus entry, once per user. */
export async function grantSignUpBonus(db: Db, userId: string, createdAt?: Date): Promise<void> {
  await insertSignUpBonus(db, { user_id: userId, amount: SIGN_UP_BONUS, ...(createdAt ? { created_at: createdAt } : {}) });
}
