import type { z } from '@hono/zod-openapi';
import { isAllowedRedirect } from '../auth/redirects';
import { DomainError, invalid } from '../errors';
import type { CoreConfig } from '../config/core';
import type { entriesOf } from './ledger';
import { PaymentProviderError } from './provider';
import type { selectPlans } from './queries';
import { type CheckoutRow, type SubscriptionRow } from './service';
import type { CheckoutDetailSchema, PlanSchema, ReceiptSchema, SubscriptionSchema, TransactionSchema } from './schemas';

// What the payment routes answer, shaped from rows, and how payment failures become API errors.

type Subscription = z.output<typeof SubscriptionSchema>;
type Transaction = z.output<typeof TransactionSchema>;
type Plan = z.output<typeof PlanSchema>;
type CheckoutDetail = z.output<typeof CheckoutDetailSchema>;
type Receipt = z.output<typeof ReceiptSchema>;

export const checkoutOf = (row: CheckoutRow) => ({ id: row.id, url: row.url, status: row.status as 'open' | 'complete' | 'expired' });

export const checkoutDetailOf = (row: CheckoutRow): CheckoutDetail => ({
  id: row.id,
  status: row.status as CheckoutDetail['status'],
  purpose: row.purpose as CheckoutDetail['purpose'],
  quantity: row.quantity,
  plan_type: row.plan_type as CheckoutDetail['plan_type'],
  amount_minor: row.amount_minor,
  currency: row.currency.toUpperCase(),
  completed_at: row.completed_at?.toISOString() ?? null,
});

const planTitle = (key: string | null) => (key ? key.charAt(0).toUpperCase() + key.slice(1) : 'Unknown');

/** A completed checkout as a receipt line; the description says what was bought. */
export function receiptOf(row: CheckoutRow): Receipt {
  const kind = row.purpose as Receipt['kind'];
  const description = {
    credits: `${row.quantity} credits`,
    subscription: `${planTitle(row.plan_type)} plan, monthly`,
    plan_change: `Change to the ${planTitle(row.plan_type)} plan, prorated for the rest of the period`,
  }[kind];
  return {
    id: row.id,
    date: (row.completed_at ?? row.created_at).toISOString(),
    kind,
    description,
    amount_minor: row.amount_minor,
    currency: row.currency.toUpperCase(),
    status: row.amount_minor < 0 ? 'refunded' : 'paid',
  };
}

export function subscriptionOf(row: SubscriptionRow | undefined, checkoutUrl?: string): Subscription {
  return {
    plan_type: (row?.plan_type ?? 'free') as Subscription['plan_type'],
    status: (row?.status ?? 'none') as Subscription['status'],
    cancel_at_period_end: row?.cancel_at_period_end ?? false,
    current_period_end: row?.current_period_end?.toISOString() ?? null,
    ...(checkoutUrl ? { checkout_url: checkoutUrl } : {}),
  };
}

type LedgerEntry = Awaited<ReturnType<typeof entriesOf>>[number];

export const transactionOf = (r: LedgerEntry): Transaction => ({
  id: r.id,
  amount: r.amount,
  kind: r.kind as Transaction['kind'],
  description: r.description,
  created_at: r.created_at.toISOString(),
});

export const planOf = (p: Awaited<ReturnType<typeof selectPlans>>[number]): Plan => ({
  key: p.key as Plan['key'],
  title: p.title,
  sub: p.sub,
  currency: p.currency,
  priceMajor: p.price_major,
  priceCents: p.price_cents,
  strikeThrough: p.strike_through,
  buttonText: p.button_text,
  badge: p.badge,
  active: p.active,
  features: p.features,
});

/** Return URLs must lead back to this site (no open redirect through the checkout). */
export function returnUrl(config: CoreConfig, field: string, value: string | undefined, fallbackPath: string): string {
  if (value === undefined) return `${config.publicUrl}${fallbackPath}`;
  if (!isAllowedRedirect(config, value)) throw invalid(`${field}: must be an http(s) URL on this site (${config.publicUrl})`);
  return value;
}

/** Runs a payment operation, turning a provider's failure into a domain error. */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentProviderError)
      throw new DomainError('upstream_failed', `Payment provider error: ${error.message}`, undefined, { cause: error });
    throw error;
  }
}
