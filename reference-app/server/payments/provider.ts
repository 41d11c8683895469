// The card payment provider behind checkouts and subscriptions. The sandbox provider completes
// payments on this server (no account anywhere); the Stripe adapter talks to Stripe's API.
// Either sits behind this interface, and the payment service never knows which.

export interface CheckoutRequest {
  sessionId: string;
  purpose: 'credits' | 'subscription';
  userId: string;
  email: string;
  quantity: number;
  amountMinor: number;
  currency: string;
  planType: string | null;
  description: string;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutCreated {
  /** Where the browser goes to pay. */
  url: string;
  providerRef: string | null;
}

export type PaymentEvent =
  | { type: 'checkout.completed'; sessionId: string; providerRef: string | null; subscriptionRef: string | null }
  | { type: 'checkout.expired'; sessionId: string }
  | {
      type: 'subscription.updated';
      subscriptionRef: string;
      status: 'active' | 'canceled' | 'past_due';
      cancelAtPeriodEnd: boolean;
      periodEnd: Date | null;
    }
  | { type: 'subscription.deleted'; subscriptionRef: string };

/** A plan change of a running subscription (service.ts: plan changes and their proration). */
export interface PlanChangeRequest {
  subscriptionRef: string | null;
  planType: string;
  description: string;
  amountMinor: number;
  currency: string;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** Whether buy_credit may charge at once (the sandbox's test card on file). */
  readonly chargesInstantly: boolean;
  createCheckout(request: CheckoutRequest): Promise<CheckoutCreated>;
  cancelSubscription(subscriptionRef: string | null, atPeriodEnd: boolean): Promise<void>;
  reactivateSubscription(subscriptionRef: string | null): Promise<void>;
  /** Moves the subscription to another plan at once, the provider prorating the price difference. */
  changeSubscriptionPlan(request: PlanChangeRequest): Promise<void>;
  /** Authenticates and reads a webhook call; throws PaymentProviderError when it is not genuine. */
  parseWebhook(rawBody: string, headers: Headers): Promise<PaymentEvent | null>;
}

export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
}
