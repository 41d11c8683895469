import type { Selectable } from 'kysely';
import type { CheckoutSessionsTable, PaymentRefundCasesTable, Db } from '../db/types';

// Refund cases: money the provider took for a checkout that must not change the account (it
// was superseded by a newer checkout, had expired, or a plan was already active). They are
// recorded for the operators to refund (docs/security.md), once per checkout however often the
// provider reports the payment.

export type RefundCase = Selectable<PaymentRefundCasesTable>;

export async function recordRefundCase(
  trx: Db,
  checkout: Selectable<CheckoutSessionsTable>,
  payment: { providerRef: string | null; subscriptionRef: string | null; reason: string },
): Promise<RefundCase> {
  await trx
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
  return trx.selectFrom('payment_refund_cases').selectAll().where('checkout_id', '=', checkout.id).executeTakeFirstOrThrow();
}
