import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { fakeStripe, signedStripeWebhook } from '../fakes';
import { apiClients, confirmedUser, globalServer, rawApi, signedIn, type Target } from '../helpers';

// The customer-portal parts of /v1/payment (docs/payments.md): the checkout a return page
// confirms, the receipts list, and plan changes Plus <-> Pro with their prorated difference,
// on the sandbox provider and through the Stripe adapter against a stand-in of Stripe's API.

const target = globalServer();

async function payer(server: Target = target) {
  const { session } = await signedIn(server, await confirmedUser(server, 'receipts'));
  return { userId: session.user.id, api: apiClients(server, session.access_token).payment };
}

const pay = (checkoutUrl: string) => fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });

async function subscribe(api: Awaited<ReturnType<typeof payer>>['api'], plan_type: 'plus' | 'pro', server: Target = target) {
  const created = await api.createSubscription({ plan_type, success_url: `${server.url}/account/billing`, cancel_url: server.url });
  if (!created.ok) throw new Error(created.error);
  return created.data.checkout_url!;
}

describe('checkout confirmation', () => {
  it('the return URL names the checkout; its owner reads what was bought, others get 404', async () => {
    const { api } = await payer();
    const opened = await api.createCheckoutSession(1200);
    if (!opened.ok) throw new Error(opened.error);
    expect(await api.checkout(opened.data.id)).toMatchObject({ ok: true, data: { status: 'open', purpose: 'credits', quantity: 1200 } });
    const paid = await pay(opened.data.url);
    const back = new URL(paid.headers.get('location')!);
    expect(back.searchParams.get('checkout_id')).toBe(opened.data.id);
    expect(await api.checkout(opened.data.id)).toMatchObject({
      ok: true,
      data: { id: opened.data.id, status: 'complete', purpose: 'credits', quantity: 1200, amount_minor: 1200, currency: 'EUR' },
    });

    const other = await payer();
    expect(await other.api.checkout(opened.data.id)).toMatchObject({ ok: false, status: 404, error: `No checkout ${opened.data.id}` });
    expect(await rawApi(target, 'GET', `/v1/payment/checkouts/${opened.data.id}`)).toMatchObject({ status: 401 });
  });
});

describe('receipts', () => {
  it('list settled payments newest first; open and cancelled checkouts have none', async () => {
    const { api } = await payer();
    expect(await api.receipts()).toMatchObject({ ok: true, data: [] });
    const bought = await api.buyCredit(250);
    if (!bought.ok) throw new Error(bought.error);
    const open = await api.createCheckoutSession(99);
    const cancelled = await api.createCheckoutSession(77);
    if (!open.ok || !cancelled.ok) throw new Error('checkout');
    await fetch(`${cancelled.data.url}/cancel`, { method: 'POST', redirect: 'manual' });
    await pay(await subscribe(api, 'plus'));

    const receipts = await api.receipts();
    if (!receipts.ok) throw new Error(receipts.error);
    expect(receipts.data.map((r) => [r.kind, r.description, r.amount_minor, r.currency, r.status])).toEqual([
      ['subscription', 'Plus plan, monthly', 499, 'EUR', 'paid'],
      ['credits', '250 credits', 250, 'EUR', 'paid'],
    ]);
    expect(receipts.data[1]!.id).toBe(bought.data.id);
    expect(Date.parse(receipts.data[0]!.date)).toBeGreaterThanOrEqual(Date.parse(receipts.data[1]!.date));
  });
});

describe('plan changes on the sandbox', () => {
  it('Plus -> Pro charges the prorated difference, Pro -> Plus refunds it; the period end stays', async () => {
    const { api } = await payer();
    await pay(await subscribe(api, 'plus'));
    const before = await api.subscription();
    if (!before.ok) throw new Error(before.error);

    const up = await api.changeSubscription('pro');
    expect(up).toMatchObject({
      ok: true,
      data: { plan_type: 'pro', status: 'active', current_period_end: before.data.current_period_end },
    });
    const down = await api.changeSubscription('plus');
    expect(down).toMatchObject({ ok: true, data: { plan_type: 'plus', status: 'active' } });

    const receipts = await api.receipts();
    if (!receipts.ok) throw new Error(receipts.error);
    // A fresh 30-day period: almost the whole difference of 19.99 - 4.99 EUR, each way.
    const [refund, charge] = receipts.data;
    expect(charge).toMatchObject({ kind: 'plan_change', description: expect.stringMatching(/^Change to the Pro plan/), status: 'paid' });
    expect(refund).toMatchObject({
      kind: 'plan_change',
      description: expect.stringMatching(/^Change to the Plus plan/),
      status: 'refunded',
    });
    expect(charge!.amount_minor).toBeGreaterThan(1490);
    expect(charge!.amount_minor).toBeLessThanOrEqual(1500);
    expect(refund!.amount_minor).toBeLessThan(-1490);
    expect(refund!.amount_minor).toBeGreaterThanOrEqual(-1500);
  });

  it('refuses the same plan, other plans, no subscription and one set to end (409/422), changing nothing', async () => {
    const { api } = await payer();
    expect(await api.changeSubscription('pro')).toMatchObject({
      ok: false,
      status: 409,
      error: 'You have no active subscription to change; subscribe to a plan instead',
    });
    await pay(await subscribe(api, 'pro'));
    expect(await api.changeSubscription('pro')).toMatchObject({ ok: false, status: 409, error: 'You are already on the Pro plan' });
    expect(await api.client.post('subscription/change', { plan_type: 'enterprise' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'plan_type: must be plus or pro (the plans a subscription can change between)',
    });
    await api.cancelSubscriptionAtPeriodEnd();
    expect(await api.changeSubscription('plus')).toMatchObject({
      ok: false,
      status: 409,
      error: 'Your subscription is set to end; reactivate it before changing plans',
    });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'pro', cancel_at_period_end: true } });
    const receipts = await api.receipts();
    expect(receipts.ok && receipts.data.map((r) => r.kind)).toEqual(['subscription']);
  });
});

describe('plan changes through the Stripe adapter (a stand-in of Stripe)', () => {
  let stripe: Awaited<ReturnType<typeof fakeStripe>>;
  let server: PlatformTestServer;
  const webhookSecret = 'whsec_test_secret';
  beforeAll(async () => {
    stripe = await fakeStripe();
    server = await startPlatformServer({
      env: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: stripe.base,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  const webhook = (event: unknown) => signedStripeWebhook(server.url, webhookSecret, event);

  it('replaces the subscription item’s price with always_invoice proration, then books the new plan', async () => {
    const { api } = await payer(server);
    await subscribe(api, 'plus', server);
    const checkoutId = stripe.calls.at(-1)!.params.get('metadata[checkout_id]')!;
    expect(new URL(stripe.calls.at(-1)!.params.get('success_url')!).searchParams.get('checkout_id')).toBe(checkoutId);
    await webhook({
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_plan', payment_status: 'paid', subscription: 'sub_change', metadata: { checkout_id: checkoutId } } },
    });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'plus', status: 'active' } });

    expect(await api.changeSubscription('pro')).toMatchObject({ ok: true, data: { plan_type: 'pro' } });
    const [read, update] = stripe.calls.slice(-2);
    expect(read).toMatchObject({ method: 'GET', path: '/v1/subscriptions/sub_change' });
    expect(update).toMatchObject({ method: 'POST', path: '/v1/subscriptions/sub_change' });
    expect(Object.fromEntries(update!.params)).toMatchObject({
      'items[0][id]': 'si_sub_change',
      'items[0][price_data][product]': 'prod_sub_change',
      'items[0][price_data][unit_amount]': '1999',
      'items[0][price_data][currency]': 'eur',
      'items[0][price_data][recurring][interval]': 'month',
      proration_behavior: 'always_invoice',
    });
    const receipts = await api.receipts();
    expect(receipts.ok && receipts.data[0]).toMatchObject({ kind: 'plan_change', status: 'paid' });
  });

  it('an adapter failure is a 502 and leaves the plan as it was', async () => {
    const { api, userId } = await payer(server);
    await subscribe(api, 'plus', server);
    const checkoutId = stripe.calls.at(-1)!.params.get('metadata[checkout_id]')!;
    await webhook({
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_noref', payment_status: 'paid', subscription: null, metadata: { checkout_id: checkoutId } } },
    });
    await server.platform.database.db.updateTable('subscriptions').set({ provider_ref: null }).where('user_id', '=', userId).execute();
    expect(await api.changeSubscription('pro')).toMatchObject({
      ok: false,
      status: 502,
      error: expect.stringMatching(/no Stripe reference/),
    });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'plus' } });
  });
});
