import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { apiClients, confirmedUser, signedIn } from '../helpers';

// One open subscription checkout per user: a newer checkout supersedes the older one, and a
// payment for the superseded one is a recorded refund case, never a silent plan change
// (docs/security.md, "Platform API"). A server of its own, to look into the database.

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer();
});
afterAll(() => server?.close());

const pay = (checkoutUrl: string) => fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
const checkoutId = (url: string) => decodeURIComponent(url.split('/').at(-1)!);

async function subscriber() {
  const { session } = await signedIn(server, await confirmedUser(server, 'plan'));
  const api = apiClients(server, session.access_token).payment;
  const open = async (plan_type: 'plus' | 'pro') => {
    const created = await api.createSubscription({ plan_type, success_url: server.url, cancel_url: server.url });
    if (!created.ok) throw new Error(created.error);
    return created.data.checkout_url!;
  };
  return { api, open, userId: session.user.id };
}

const db = () => server.platform.database.db;
const openCheckouts = (userId: string) =>
  db()
    .selectFrom('checkout_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'subscription')
    .where('status', '=', 'open')
    .execute();
const refundCases = (userId: string) => db().selectFrom('payment_refund_cases').selectAll().where('user_id', '=', userId).execute();

describe('subscription checkouts', () => {
  it('a new checkout supersedes the open one; paying the old one afterwards is a refund case', async () => {
    const { api, open, userId } = await subscriber();
    const plus = await open('plus');
    const pro = await open('pro');
    expect((await openCheckouts(userId)).map((r) => r.id)).toEqual([checkoutId(pro)]);
    expect(await (await fetch(plus)).text()).toMatch(/Expired/);

    expect((await pay(pro)).status).toBe(303);
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'pro', status: 'active' } });

    // A stale tab pays the superseded plus checkout: the plan stays pro.
    await pay(plus);
    await pay(plus);
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'pro', status: 'active' } });
    const cases = await refundCases(userId);
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject({
      checkout_id: checkoutId(plus),
      amount_minor: 499,
      currency: 'eur',
      status: 'open',
      reason: `Paid after checkout ${checkoutId(pro)} replaced it`,
    });
  });

  it('paying the superseded checkout first starts no plan; the current one still can', async () => {
    const { api, open, userId } = await subscriber();
    const plus = await open('plus');
    const pro = await open('pro');
    await pay(plus);
    expect(await api.subscription()).toMatchObject({ ok: true, data: { status: 'none' } });
    expect(await refundCases(userId)).toHaveLength(1);
    await pay(pro);
    expect(await api.subscription()).toMatchObject({ ok: true, data: { plan_type: 'pro', status: 'active' } });
  });

  it('concurrent checkouts leave exactly one open, and only it can start a plan', async () => {
    const { api, open, userId } = await subscriber();
    const urls = await Promise.all([open('plus'), open('pro'), open('plus'), open('pro')]);
    const stillOpen = await openCheckouts(userId);
    expect(stillOpen).toHaveLength(1);
    await Promise.all(urls.map(pay));
    const winner = urls.find((url) => checkoutId(url) === stillOpen[0]!.id)!;
    const subscription = await api.subscription();
    expect(subscription).toMatchObject({ ok: true, data: { status: 'active' } });
    const row = await db()
      .selectFrom('checkout_sessions')
      .select('plan_type')
      .where('id', '=', checkoutId(winner))
      .executeTakeFirstOrThrow();
    expect(subscription.ok && subscription.data.plan_type).toBe(row.plan_type);
    expect(await refundCases(userId)).toHaveLength(3);
  });

  it('credit checkouts are not limited: several may be open at once', async () => {
    const { session } = await signedIn(server, await confirmedUser(server, 'credits'));
    const api = apiClients(server, session.access_token).payment;
    const opened = await Promise.all([api.createCheckoutSession(10), api.createCheckoutSession(20)]);
    expect(opened.every((r) => r.ok && r.data.status === 'open')).toBe(true);
    await Promise.all(opened.map((r) => r.ok && pay(r.data.url)));
    expect(await api.balance()).toMatchObject({ ok: true, data: { balance: 530 } });
    expect(await refundCases(session.user.id)).toHaveLength(0);
  });
});
