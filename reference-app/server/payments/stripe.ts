import { createHmac } from 'node:crypto';
import { safeEqual } from '../crypto/tokens';
import { PaymentProviderError, type PaymentEvent, type PaymentProvider } from './provider';

// Stripe adapter: Checkout Sessions for credits (mode=payment) and plans (mode=subscription),
// subscription cancel/reactivate/plan change, and signed webhooks. Plain fetch against the REST API, so
// STRIPE_API_BASE can point at a stand-in in tests.

const SIGNATURE_TOLERANCE_S = 300;

type Params = Record<string, string | number | boolean | undefined>;

function form(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) body.set(key, String(value));
  return body;
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string | undefined;
  apiBase: string;
}

export function createStripeProvider(options: StripeOptions): PaymentProvider {
  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, params: Params = {}): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await fetch(`${options.apiBase}${path}`, {
        method,
        headers: { Authorization: `Bearer ${options.secretKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: method === 'POST' ? form(params) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`Stripe is unreachable: ${(error as Error).message}`, { cause: error });
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const message = (body.error as { message?: string } | undefined)?.message ?? `HTTP ${response.status}`;
      throw new PaymentProviderError(`Stripe refused ${method} ${path}: ${message}`);
    }
    return body;
  }

  return {
    name: 'stripe',
    chargesInstantly: false,
    async createCheckout(request) {
      const subscription = request.purpose === 'subscription';
      const session = await call('POST', '/v1/checkout/sessions', {
        mode: subscription ? 'subscription' : 'payment',
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        client_reference_id: request.sessionId,
        customer_email: request.email || undefined,
        'metadata[checkout_id]': request.sessionId,
        'metadata[user_id]': request.userId,
        'line_items[0][quantity]': 1,
        'line_items[0][price_data][currency]': request.currency,
        'line_items[0][price_data][unit_amount]': request.amountMinor,
        'line_items[0][price_data][product_data][name]': request.description,
        ...(subscription ? { 'line_items[0][price_data][recurring][interval]': 'month' } : {}),
      });
      if (typeof session.url !== 'string' || typeof session.id !== 'string') {
        throw new PaymentProviderError('Stripe returned a checkout session without id or url');
      }
      return { url: session.url, providerRef: session.id };
    },
    async cancelSubscription(ref, atPeriodEnd) {
      if (!ref) return;
      if (atPeriodEnd) await call('POST', `/v1/subscriptions/${encodeURIComponent(ref)}`, { cancel_at_period_end: true });
      else await call('DELETE', `/v1/subscriptions/${encodeURIComponent(ref)}`);
    },
    async reactivateSubscription(ref) {
      if (ref) await call('POST', `/v1/subscriptions/${encodeURIComponent(ref)}`, { cancel_at_period_end: false });
    },
    async changeSubscriptionPlan(request) {
      if (!request.subscriptionRef) throw new PaymentProviderError('The subscription has no Stripe reference to change');
      const path = `/v1/subscriptions/${encodeURIComponent(request.subscriptionRef)}`;
      // The new price replaces the subscription's one item; Stripe's price_data on a subscription
      // item names an existing product, so the current item's product is reused.
      const current = await call('GET', path);
      const item = (current.items as { data?: Array<{ id?: string; price?: { product?: string } }> } | undefined)?.data?.[0];
      if (!item?.id || !item.price?.product) throw new PaymentProviderError('Stripe returned a subscription without an item to change');
      await call('POST', path, {
        'items[0][id]': item.id,
        'items[0][price_data][currency]': request.currency,
        'items[0][price_data][unit_amount]': request.amountMinor,
        'items[0][price_data][product]': item.price.product,
        'items[0][price_data][recurring][interval]': 'month',
        // Invoices the prorated difference now, as the sandbox books it (docs/payments.md).
        proration_behavior: 'always_invoice',
        'metadata[plan_type]': request.planType,
      });
    },
    async parseWebhook(rawBody, headers) {
      if (!options.webhookSecret) throw new PaymentProviderError('STRIPE_WEBHOOK_SECRET is not configured');
      const header = headers.get('stripe-signature') ?? '';
      const parts = header.split(',').map((p) => p.split('=') as [string, string]);
      const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
      const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v);
      if (!Number.isFinite(timestamp) || !signatures.length) throw new PaymentProviderError('Missing or malformed Stripe-Signature header');
      if (Math.abs(Date.now() / 1000 - timestamp) > SIGNATURE_TOLERANCE_S)
        throw new PaymentProviderError('Stripe-Signature timestamp outside the tolerance');
      const expected = createHmac('sha256', options.webhookSecret).update(`${timestamp}.${rawBody}`).digest('hex');
      if (!signatures.some((s) => safeEqual(s, expected))) throw new PaymentProviderError('Stripe-Signature does not match');
      return toEvent(JSON.parse(rawBody) as { type?: string; data?: { object?: Record<string, unknown> } });
    },
  };
}

function periodEnd(object: Record<string, unknown>): Date | null {
  const items = (object.items as { data?: Array<{ current_period_end?: number }> } | undefined)?.data;
  const end = (object.current_period_end as number | undefined) ?? items?.[0]?.current_period_end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

function toEvent(event: { type?: string; data?: { object?: Record<string, unknown> } }): PaymentEvent | null {
  const object = event.data?.object ?? {};
  const metadata = (object.metadata as Record<string, string> | undefined) ?? {};
  const checkoutId = metadata.checkout_id ?? (object.client_reference_id as string | undefined);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      if (!checkoutId || (object.payment_status !== 'paid' && object.payment_status !== 'no_payment_required')) return null;
      return {
        type: 'checkout.completed',
        sessionId: checkoutId,
        providerRef: (object.id as string) ?? null,
        subscriptionRef: (object.subscription as string | null | undefined) ?? null,
      };
    case 'checkout.session.expired':
      return checkoutId ? { type: 'checkout.expired', sessionId: checkoutId } : null;
    case 'customer.subscription.updated': {
      const status = String(object.status);
      return {
        type: 'subscription.updated',
        subscriptionRef: String(object.id),
        status: status === 'active' || status === 'trialing' ? 'active' : status === 'past_due' ? 'past_due' : 'canceled',
        cancelAtPeriodEnd: object.cancel_at_period_end === true,
        periodEnd: periodEnd(object),
      };
    }
    case 'customer.subscription.deleted':
      return { type: 'subscription.deleted', subscriptionRef: String(object.id) };
    default:
      return null;
  }
}
