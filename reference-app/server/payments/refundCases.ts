import type { Selectable } from 'kysely';
import type { CheckoutSessionsTable, PaymentRefundCasesTable, Db } from '../db/types';
import { upsertRefundCase } from './queries';

// Refund cases: money the provider took for a checkout that must not change the account (it
// was superseded by a newer checkout, had expired, or a plan was already active). They are
// recorded for the operators to refund (docs/security.md), once per checkout however often the
// provider reports the payment.

export type RefundCase = Selectable<PaymentRefundCasesTable>;

/** Records the case (once per checkout, however often the provider reports it); the stored row. */
export function recordRefundCase(
  db: Db,
  checkout: Selectable<CheckoutSessionsTable>,
  payment: { providerRef: string | null; subscriptionRef: string | null; reason: string },
): Promise<RefundCase> {
  return upsertRefundCase(db, checkout, payment);
}
