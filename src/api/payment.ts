import { createApiClient, type ClientOptions } from './http';
import type { Balance, CheckoutDetail, CheckoutSession, PlanKey, Receipt, Subscription, SubscriptionCreate, Transaction } from './types';

export const PAYMENT_PREFIX = '/v1/payment/';

/** Payment group (product-rules §7): every call needs a token. */
export function createPaymentClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: PAYMENT_PREFIX, defaultAuth: 'required' });
  return {
    client,
    buyCredit: (quantity: number) => client.post<CheckoutSession>('buy_credit', { quantity }),
    createCheckoutSession: (quantity: number) => client.post<CheckoutSession>('create_checkout_session', { quantity }),
    balance: () => client.get<Balance>('balance'),
    transactions: () => client.get<Transaction[]>('get_transactions'),
    subscription: () => client.get<Subscription>('subscription'),
    createSubscription: (payload: SubscriptionCreate) => client.post<Subscription>('subscription/create', payload),
    cancelSubscription: () => client.post<Subscription>('subscription/cancel'),
    cancelSubscriptionAtPeriodEnd: () => client.post<Subscription>('subscription/cancel_at_period_end'),
    reactivateSubscription: () => client.post<Subscription>('subscription/reactivate'),
    /** Moves the active subscription to `plan_type` at once; the prorated difference becomes a receipt. */
    changeSubscription: (plan_type: Extract<PlanKey, 'plus' | 'pro'>) => client.post<Subscription>('subscription/change', { plan_type }),
    /** Settled payments and plan changes, newest first. */
    receipts: () => client.get<Receipt[]>('receipts'),
    /** One of the caller's checkouts (the return page after paying confirms it). */
    checkout: (id: string) => client.get<CheckoutDetail>(`checkouts/${encodeURIComponent(id)}`),
  };
}

/** The payment API client: balance, usage, transactions, checkout and subscriptions. */
export type PaymentClient = ReturnType<typeof createPaymentClient>;
