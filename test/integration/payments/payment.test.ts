import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS_MISSING_ERROR } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { fakeStripe, signedStripeWebhook } from '../fakes';
import { apiClients, confirmedUser, globalServer, PUBLISHER, rawApi, signedIn, type Target } from '../helpers';

// /v1/payment/ (product-rules §7): the credit ledger (the sign-up bonus of 500 first; the balance is the
// sum, concurrent purchases all land), checkouts through the sandbox provider, the plan
// subscription lifecycle, and the Stripe adapter against a stand-in of Stripe's API.

const target = globalServer();

async function payer(server: Target = target) {
  const { session } = await signedIn(server, await confirmedUser(server, 'payer'));
  return { token: session.access_token, api: apiClients(server, session.access_token).payment };
}

/** Presses "Pay" on the sandbox checkout page, as the browser would. */
const pay = (checkoutUrl: string) => fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });

describe('credits', () => {
  it('start with the sign-up bonus of 500 as the first ledger entry', async () => {
    const { api } = await payer();
    // The price of a credit with its currency, shown before paying (issue 39, item 4).
    expect(await api.balance()).toMatchObject({ ok: true, data: { balance: 500, credit_price: { currency: 'eur', amount_minor: 1 } } });
    const transactions = await api.transactions();
    expect(transactions).toMatchObject({ ok: true, data: [{ amount: 500, kind: 'sign_up_bonus', description: 'Sign-up bonus' }] });
  });

  it('buy_credit with the sandbox settles at once; the balance is the ledger sum', async () => {
    const { api } = await payer();
    const bought = await api.buyCredit(250);
    if (!bought.ok) throw new Error(bought.error);
    expect(bought.data).toMatchObject({ status: 'complete', id: expect.stringMatching(/^cs_sandbox_/) });
    expect(await api.balance()).toMatchObject({ ok: true, data: { balance: 750 } });
    const transactions = await api.transactions();
    expect(transactions.ok && transactions.data.map((t) => [t.kind, t.amount])).toEqual([
      ['purchase', 250],
      ['sign_up_bonus', 500],
    ]);
    const receipt = await fetch(bought.data.url);
    expect(await receipt.text()).toMatch(/Paid/);
  });

  it('concurrent purchases all land in the ledger', async () => {
    const { api } = await payer();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => api.buyCredit(i + 1)));
    expect(results.every((r) => r.ok && r.data.status === 'complete')).toBe(true);
    expect(await api.balance()).toMatchObject({ ok: true, data: { balance: 500 + 36 } });
    const transactions = await api.transactions();
    expect(transactions.ok && transactions.data.length).toBe(9);
  });

  it('create_checkout_session stays open until paid on the sandbox page; concurrent payments book it once', async () => {
    const { api } = await payer();
    const opened = await api.createCheckoutSession(1000);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.data.status).toBe('open');
    expect(opened.data.url).toBe(`${target.url}/sandbox/checkout/${opened.data.id}`);
    expect(await api.balance()).toMatchObject({ data: { balance: 500 } });
    const page = await (await fetch(opened.data.url)).text();
    expect(page).toMatch(/1000 credits/);

    const [a, b, c] = await Promise.all([pay(opened.data.url), pay(opened.data.url), pay(opened.data.url)]);
    expect([a.status, b.status, c.status]).toEqual([303, 303, 303]);
    expect(a.headers.get('location')).toBe(`${target.url}/account/billing?checkout=success&checkout_id=${opened.data.id}`);
    expect(await api.balance()).toMatchObject({ data: { balance: 1500 } });
  });

  it('a cancelled checkout books nothing', async () => {
    const { api } = await payer();
    const opened = await api.createCheckoutSession(40);
    if (!opened.ok) throw new Error(opened.error);
    const cancel = await fetch(`${opened.data.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancel.headers.get('location')).toBe(`${target.url}/account/billing?checkout=cancel`);
    await pay(opened.data.url);
    expect(await api.balance()).toMatchObject({ data: { balance: 500 } });
  });

  it('rejects bad quantities and foreign return URLs with 422 and stores nothing', async () => {
    const { api, token } = await payer();
    for (const [quantity, detail] of [
      [0, 'quantity: must be at least 1'],
      [2.5, 'quantity: must be a whole number of credits'],
      [5_000_000, 'quantity: must be at most 1000000'],
    ] as const) {
      expect(await api.buyCredit(quantity)).toMatchObject({ ok: false, status: 422, error: detail });
    }
    expect(await api.client.post('buy_credit', { quantity: 'ten' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'quantity: must be a number of credits',
    });
    expect(await api.client.post('buy_credit', {})).toMatchObject({ ok: false, status: 422, error: expect.stringMatching(/^quantity: /) });
    const foreign = await rawApi(target, 'POST', '/v1/payment/create_checkout_session', {
      token,
      body: { quantity: 5, success_url: 'https://evil.example/' },
    });
    expect(foreign).toMatchObject({ status: 422, json: { detail: `success_url: must be an http(s) URL on this site (${target.url})` } });
    expect(await api.transactions()).toMatchObject({ ok: true, data: [{ kind: 'sign_up_bonus' }] });
  });

  it('needs a token', async () => {
    expect(await apiClients(target, null).payment.balance()).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    for (const [method, path] of [
      ['GET', 'balance'],
      ['GET', 'get_transactions'],
      ['POST', 'buy_credit'],
      ['POST', 'create_checkout_session'],
      ['GET', 'subscription'],
      ['POST', 'subscription/create'],
      ['POST', 'subscription/cancel'],
      ['POST', 'subscription/cancel_at_period_end'],
      ['POST', 'subscription/reactivate'],
    ]) {
      const raw = await rawApi(target, method!, `/v1/payment/${path}`, method === 'POST' ? { body: { quantity: 1 } } : {});
      expect(raw.status, path).toBe(401);
      expect(raw.json.detail, path).toMatch(/^Not authenticated/);
    }
  });
});

describe('subscription', () => {
  it('goes none -> active (after paying) -> cancel at period end -> reactivate -> canceled', async () => {
    const { api } = await payer();
    expect(await api.subscription()).toMatchObject({
      ok: true,
      data: { plan_type: 'free', status: 'none', cancel_at_period_end: false, current_period_end: null },
    });

    const created = await api.createSubscription({
      plan_type: 'plus',
      success_url: `${target.url}/account/billing?plan=ok`,
      cancel_url: `${target.url}/pricing`,
    });
    if (!created.ok) throw new Error(created.error);
    expect(created.data).toMatchObject({ status: 'none', checkout_url: expect.stringContaining('/sandbox/checkout/') });
    expect(await (await fetch(created.data.checkout_url!)).text()).toMatch(/€4\.99/);
    const paid = await pay(created.data.checkout_url!);
    // The return URL names the checkout, so the site can confirm the purchase.
    const checkoutId = decodeURIComponent(created.data.checkout_url!.split('/').at(-1)!);
    expect(paid.headers.get('location')).toBe(`${target.url}/account/billing?plan=ok&checkout_id=${checkoutId}`);

    const active = await api.subscription();
    if (!active.ok) throw new Error(active.error);
    expect(active.data).toMatchObject({ plan_type: 'plus', status: 'active', cancel_at_period_end: false });
    expect(Date.parse(active.data.current_period_end!)).toBeGreaterThan(Date.now() + 25 * 86_400_000);

    expect(await api.createSubscription({ plan_type: 'pro', success_url: target.url, cancel_url: target.url })).toMatchObject({
      ok: false,
      status: 409,
      error: expect.stringMatching(/already have an active plus subscription/),
    });
    expect(await api.reactivateSubscription()).toMatchObject({
      ok: false,
      status: 409,
      error: 'Your subscription is active and not set to cancel',
    });
    expect(await api.cancelSubscriptionAtPeriodEnd()).toMatchObject({ ok: true, data: { status: 'active', cancel_at_period_end: true } });
    expect(await api.reactivateSubscription()).toMatchObject({ ok: true, data: { status: 'active', cancel_at_period_end: false } });
    expect(await api.cancelSubscription()).toMatchObject({ ok: true, data: { status: 'canceled', plan_type: 'plus' } });
    expect(await api.cancelSubscription()).toMatchObject({ ok: false, status: 409, error: 'You have no active subscription to cancel' });
    expect(await api.reactivateSubscription()).toMatchObject({
      ok: false,
      status: 409,
      error: 'Your subscription has ended; start a new one instead',
    });
  });

  it('refuses the free and enterprise plans, unknown plans and foreign URLs', async () => {
    const { api } = await payer();
    const urls = { success_url: target.url, cancel_url: target.url };
    expect(await api.createSubscription({ plan_type: 'free', ...urls })).toMatchObject({
      ok: false,
      status: 422,
      error: 'plan_type: the free plan needs no subscription',
    });
    expect(await api.createSubscription({ plan_type: 'enterprise', ...urls })).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^plan_type: the enterprise plan/),
    });
    expect(await api.client.post('subscription/create', { plan_type: 'gold', ...urls })).toMatchObject({
      ok: false,
      status: 422,
      error: 'plan_type: must be one of free, plus, pro, enterprise',
    });
    expect(await api.createSubscription({ plan_type: 'pro', success_url: 'https://evil.example', cancel_url: target.url })).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^success_url: /),
    });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { status: 'none' } });
  });

  it('the publisher has an active pro plan; /v1/payment/plans lists the plans of product-rules §9', async () => {
    const { session } = await signedIn(target, PUBLISHER);
    expect(await apiClients(target, session.access_token).payment.subscription()).toMatchObject({
      ok: true,
      data: { plan_type: 'pro', status: 'active' },
    });
    const plans = await rawApi(target, 'GET', '/v1/payment/plans');
    expect(plans.json.map((p) => [p.key, p.currency, p.priceMajor, p.priceCents, p.strikeThrough ?? null, p.badge ?? null])).toEqual([
      ['free', 'USD', 0, 0, null, null],
      ['plus', 'EUR', 4, 99, null, null],
      ['pro', 'EUR', 19, 99, '$29,99', 'Most Popular'],
      ['enterprise', 'EUR', 39, 99, null, null],
    ]);
  });
});

describe('Stripe adapter (PAYMENT_PROVIDER=stripe against a stand-in of Stripe)', () => {
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

  const webhook = (event: unknown, secret = webhookSecret) => signedStripeWebhook(server.url, secret, event);

  it('buy_credit opens a Stripe Checkout session; the signed webhook books it exactly once', async () => {
    const { api } = await payer(server);
    const opened = await api.buyCredit(300);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.data).toMatchObject({ status: 'open', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const call = stripe.calls.at(-1)!;
    expect(call.path).toBe('/v1/checkout/sessions');
    expect(Object.fromEntries(call.params)).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '300',
      'line_items[0][price_data][currency]': 'eur',
      'metadata[checkout_id]': opened.data.id,
    });
    expect(await api.balance()).toMatchObject({ data: { balance: 500 } });

    const event = {
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_x', payment_status: 'paid', metadata: { checkout_id: opened.data.id } } },
    };
    expect((await webhook(event)).status).toBe(200);
    expect((await webhook(event)).status).toBe(200);
    expect(await api.balance()).toMatchObject({ data: { balance: 800 } });
  });

  it('rejects webhooks with a bad signature', async () => {
    const response = await webhook({ type: 'checkout.session.completed', data: { object: {} } }, 'whsec_wrong');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: 'Webhook rejected: Stripe-Signature does not match' });
    const sandbox = await fetch(`${server.url}/v1/payment/webhook/sandbox`, { method: 'POST', body: '{}' });
    expect(sandbox.status).toBe(404);
  });

  it('subscriptions: checkout in subscription mode, then cancel at period end goes to Stripe', async () => {
    const { api } = await payer(server);
    const created = await api.createSubscription({
      plan_type: 'pro',
      success_url: `${server.url}/account/billing`,
      cancel_url: `${server.url}/pricing`,
    });
    if (!created.ok) throw new Error(created.error);
    const checkout = stripe.calls.at(-1)!;
    expect(Object.fromEntries(checkout.params)).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '1999',
      'line_items[0][price_data][recurring][interval]': 'month',
    });
    const checkoutId = checkout.params.get('metadata[checkout_id]')!;
    await webhook({
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_sub', payment_status: 'paid', subscription: 'sub_123', metadata: { checkout_id: checkoutId } } },
    });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'pro', status: 'active' } });

    expect(await api.cancelSubscriptionAtPeriodEnd()).toMatchObject({ ok: true, data: { cancel_at_period_end: true } });
    expect(stripe.calls.at(-1)).toMatchObject({ method: 'POST', path: '/v1/subscriptions/sub_123' });
    expect(stripe.calls.at(-1)!.params.get('cancel_at_period_end')).toBe('true');

    await webhook({ type: 'customer.subscription.deleted', data: { object: { id: 'sub_123' } } });
    expect(await api.subscription()).toMatchObject({ ok: true, data: { status: 'canceled' } });
  });
});
