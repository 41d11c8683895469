import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { startSketchService, type SketchService } from '../../fixtures/sketchService';
import { apiClients, confirmedUser, rawApi, signedIn, subscribe } from '../helpers';

// After a downgrade below the plan's private-service limit (docs/publishing.md, "Rules"): the
// owner's oldest private services keep the new plan's allowance, newer ones refuse runs with 402
// until the owner makes one public, deletes one or upgrades; nothing is changed for them.

let server: PlatformTestServer;
let sketch: SketchService;
beforeAll(async () => {
  [server, sketch] = await Promise.all([startPlatformServer(), startSketchService()]);
});
afterAll(async () => {
  await Promise.all([server?.close(), sketch?.close()]);
});

/** Puts the user on a plan the way an active subscription does (the payment flow is tested elsewhere). */
async function setPlan(userId: string, plan: 'pro' | 'plus' | 'free') {
  const { db } = server.platform.database;
  await db.deleteFrom('subscriptions').where('user_id', '=', userId).execute();
  if (plan !== 'free') await subscribe(db, userId, plan);
}

describe('private services after a downgrade', () => {
  it('refuses runs of the newest private services over the new limit (402) until the owner deletes one or makes one public', async () => {
    const { session } = await signedIn(server, await confirmedUser(server, 'downgrade'));
    const owner = apiClients(server, session.access_token).services;
    await setPlan(session.user.id, 'pro');
    const ids: string[] = [];
    for (const name of ['Oldest', 'Middle', 'Newest']) {
      const created = await owner.create({
        display_name: `${name} ${Date.now()}`,
        visibility: 'private',
        endpoints: [
          { method: 'POST', path: '/echo', parameters: [{ name: 'text', type: 'string', required: true }], output: { type: 'json' } },
        ],
        runtime: { type: 'http', base_url: sketch.url },
      });
      expect(created).toMatchObject({ ok: true, status: 201 });
      ids.push(created.ok ? created.data.id : '');
    }
    const [oldest, middle, newest] = ids as [string, string, string];
    const run = (id: string) =>
      rawApi(server, 'POST', '/v1/jobs', {
        token: session.access_token,
        body: { service_id: id, endpoint: '/echo', input: { text: 'hi' } },
        headers: { Prefer: 'wait=30' },
      });
    const billing = `${server.url}/account/billing`;

    // Pro to Plus (2 private services): the two oldest keep running, the newest is held.
    await setPlan(session.user.id, 'plus');
    expect(await run(newest)).toMatchObject({
      status: 402,
      json: {
        detail:
          `Your plus plan allows 2 private services and you have 3: ${newest} is over the limit and does not run until you ` +
          `make one of your private services public, delete one, or upgrade your plan at ${billing}.`,
      },
    });
    expect(await run(oldest)).toMatchObject({ status: 201, json: { status: 'FINISHED', result: { echo: { text: 'hi' } } } });
    // Nothing was changed for the owner: all three are still private and active.
    const listed = await owner.list();
    expect(listed.ok && listed.data.filter((s) => ids.includes(s.id)).map((s) => [s.visibility, s.status])).toEqual([
      ['private', 'active'],
      ['private', 'active'],
      ['private', 'active'],
    ]);

    // Deleting one frees a place: the newest runs again. (A loaded service is reused for up to
    // a second by the job API, so the change may take that long to show.)
    expect(await owner.remove(oldest)).toMatchObject({ ok: true });
    await expect.poll(async () => (await run(newest)).status, { timeout: 5000, interval: 250 }).toBe(201);

    // Plus to Free (no private services): every private service is held, until it is made public.
    await setPlan(session.user.id, 'free');
    await expect.poll(async () => (await run(middle)).status, { timeout: 5000, interval: 250 }).toBe(402);
    await expect.poll(async () => (await run(newest)).status, { timeout: 5000, interval: 250 }).toBe(402);
    expect((await run(newest)).json).toMatchObject({
      detail: expect.stringMatching(new RegExp(`^Your free plan allows no private services and you have 2: ${newest} is over the limit`)),
    });
    expect(await owner.update(middle, { visibility: 'public' })).toMatchObject({ ok: true, data: { visibility: 'public' } });
    await expect.poll(async () => (await run(middle)).status, { timeout: 5000, interval: 250 }).toBe(201);
    expect(await run(newest)).toMatchObject({ status: 402 });
  }, 120_000);
});
