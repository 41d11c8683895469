import { describe, expect, it } from 'vitest';
import { TOKENS_MISSING_ERROR } from '../../../src/api';
import { apiClients, confirmedUser, follow, globalServer, latestMail, mailbox, rawApi, signedIn, uniqueEmail } from '../helpers';

// /v1/support/ (product-rules §7): newsletter options and (un)subscription, open to everyone; the
// contact form with attachments, which needs a token.

const target = globalServer();
const support = () => apiClients(target, null).support;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');

describe('newsletter', () => {
  it('lists the subscription options', async () => {
    const result = await support().subscriptionOptions();
    if (!result.ok) throw new Error(result.error);
    expect(result.data.length).toBeGreaterThanOrEqual(4);
    expect(result.data[0]).toEqual({ id: 1, display_value: 'Product updates', description: expect.any(String) });
  });

  it('double opt-in: a request mails a signed confirm link; only the link confirms; the welcome can unsubscribe', async () => {
    const email = uniqueEmail('news');
    expect(await support().subscribeNewsletter({ email, products: [2, 1, 2] })).toMatchObject({
      ok: true,
      data: { subscribed: [], pending_confirmation: [1, 2] },
    });
    const request = await latestMail(target, email);
    expect(request.subject).toMatch(/Confirm your Limelight newsletter subscription/);
    expect(request.text).toMatch(/Product updates, New models/);
    const confirm = request.links.find((l) => l.includes('/v1/support/confirm_newsletter'))!;

    // Opening the link (as a mail scanner would) confirms nothing; the button does.
    const opened = await fetch(confirm);
    expect(await opened.text()).toMatch(/<form method="post"><button type="submit">Confirm subscription/);
    expect(await support().subscribeNewsletter({ email, products: [1] })).toMatchObject({
      data: { subscribed: [], pending_confirmation: [1] },
    });
    const forged = await fetch(confirm.replace('products=1%2C2', 'products=1%2C2%2C3'), { method: 'POST' });
    expect(forged.status).toBe(400);
    const confirmed = await fetch(confirm, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toMatch(/is subscribed/);
    expect(await support().subscribeNewsletter({ email, products: [1, 2] })).toMatchObject({
      ok: true,
      data: { subscribed: [1, 2], pending_confirmation: [] },
    });

    const welcome = await latestMail(target, email, 3);
    expect(welcome.subject).toMatch(/subscribed to Limelight news/);
    const link = welcome.links.find((l) => l.includes('/v1/support/unsubscribe'))!;
    const token = new URL(link).searchParams.get('token')!;
    expect(await support().unsubscribeNewsletter({ email, products: [2], token })).toMatchObject({
      ok: true,
      data: { unsubscribed: [2] },
    });
    // Opening the link asks; only the button (a POST) unsubscribes.
    expect(await (await fetch(link)).text()).toMatch(/<form method="post"><button type="submit">Unsubscribe /);
    expect(await support().unsubscribeNewsletter({ email, products: [], token })).toMatchObject({ ok: true, data: { unsubscribed: [1] } });
    const page = await fetch(link, { method: 'POST' });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/will receive no more newsletters/);
    const forgedLink = await fetch(link.replace(/token=[^&]+/, 'token=forged'));
    expect(forgedLink.status).toBe(400);
  });

  it('unsubscribing needs the link token or the signed-in owner', async () => {
    const credentials = await confirmedUser(target, 'reader');
    const { session } = await signedIn(target, credentials);
    expect(await support().unsubscribeNewsletter({ email: credentials.email, products: [] })).toMatchObject({
      ok: false,
      status: 403,
      error: `To unsubscribe ${credentials.email}, use the link in one of our newsletter mails, or sign in as that address`,
    });
    expect(await support().unsubscribeNewsletter({ email: credentials.email, products: [], token: 'guess' })).toMatchObject({
      ok: false,
      status: 403,
    });
    const stranger = await signedIn(target, await confirmedUser(target, 'stranger'));
    const asStranger = await rawApi(target, 'POST', '/v1/support/unsubscribe_newsletter', {
      token: stranger.session.access_token,
      body: { email: credentials.email, products: [] },
    });
    expect(asStranger.status).toBe(403);
    const asOwner = await rawApi(target, 'POST', '/v1/support/unsubscribe_newsletter', {
      token: session.access_token,
      body: { email: credentials.email.toUpperCase(), products: [] },
    });
    expect(asOwner).toMatchObject({ status: 200, json: { unsubscribed: [] } });
  });

  it('limits confirmation mails per address', async () => {
    const email = uniqueEmail('flood');
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await support().subscribeNewsletter({ email, products: [1] }));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(await mailbox(target, email)).toHaveLength(3);
  });

  it('rejects invalid addresses, unknown and empty option lists with 422', async () => {
    expect(await support().subscribeNewsletter({ email: 'nope', products: [1] })).toMatchObject({
      ok: false,
      status: 422,
      error: 'email: must be a valid e-mail address',
    });
    expect(await support().subscribeNewsletter({ email: uniqueEmail('n'), products: [1, 99] })).toMatchObject({
      ok: false,
      status: 422,
      error: 'products: unknown subscription option 99',
    });
    expect(await support().subscribeNewsletter({ email: uniqueEmail('n'), products: [] })).toMatchObject({
      ok: false,
      status: 422,
      error: 'products: choose at least one option',
    });
    expect(await support().client.post('subscribe_newsletter', { email: uniqueEmail('n'), products: ['one'] })).toMatchObject({
      ok: false,
      status: 422,
      error: 'products.0: must list option ids',
    });
  });
});

describe('contact support', () => {
  it('needs a token', async () => {
    const payload = { topic: 'billing', subject: 'Hi', message: 'Hello' };
    expect(await support().contactSupport(payload)).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    const raw = await rawApi(target, 'POST', '/v1/support/support', { body: payload });
    expect(raw.status).toBe(401);
  });

  it('stores the request with attachments and mails support and the user', async () => {
    const credentials = await confirmedUser(target, 'help');
    const { session } = await signedIn(target, credentials);
    const api = apiClients(target, session.access_token).support;
    const result = await api.contactSupport({
      topic: 'hosting',
      subject: 'Cold starts on my service',
      message: 'My service takes 3 s to start. Logs attached.',
      attachments: [
        { filename: 'screenshot.png', content_type: 'image/png', data_base64: PNG },
        { filename: 'log.txt', content_type: 'text/plain', data_base64: Buffer.from('boot 3012 ms').toString('base64') },
      ],
    });
    expect(result).toMatchObject({ ok: true, data: { id: expect.any(String) } });
    const ack = await latestMail(target, credentials.email, 2);
    expect(ack.subject).toBe('[Limelight support] Cold starts on my service');
    const team = await latestMail(target, 'support@limelight.dev');
    expect(team.text).toContain('screenshot.png');
    expect(team.text).toContain(credentials.email);
  });

  it('limits attachments: count, type, content and size', async () => {
    const { session } = await signedIn(target, await confirmedUser(target, 'help2'));
    const api = apiClients(target, session.access_token).support;
    const base = { topic: 'other', subject: 'Files', message: 'See attached' };
    const file = { filename: 'a.png', content_type: 'image/png', data_base64: PNG };
    expect(await api.contactSupport({ ...base, attachments: Array(6).fill(file) })).toMatchObject({
      ok: false,
      status: 422,
      error: 'attachments: at most 5 attachments',
    });
    expect(await api.contactSupport({ ...base, attachments: [{ ...file, content_type: 'application/x-msdownload' }] })).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^attachments\.0\.content_type: must be one of image\/png/),
    });
    expect(
      await api.contactSupport({ ...base, attachments: [{ ...file, data_base64: Buffer.from('MZ not a png').toString('base64') }] }),
    ).toMatchObject({ ok: false, status: 422, error: 'attachments.0: a.png is not a image/png file' });
    expect(await api.contactSupport({ ...base, attachments: [{ ...file, filename: '../etc/passwd' }] })).toMatchObject({
      ok: false,
      status: 422,
      error: 'attachments.0.filename: must be a plain file name',
    });
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 0x41).toString('base64');
    const tooBig = await api.contactSupport({
      ...base,
      attachments: [{ filename: 'big.txt', content_type: 'text/plain', data_base64: big }],
    });
    expect(tooBig).toMatchObject({ ok: false, status: 422, error: 'attachments.0.data_base64: exceeds 5 MB' });
    expect(await api.contactSupport({ ...base, subject: '' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'subject: must not be empty',
    });
  });

  it('answers an oversized body with 413', async () => {
    const { session } = await signedIn(target, await confirmedUser(target, 'help3'));
    const raw = await rawApi(target, 'POST', '/v1/profile/update_profile', {
      token: session.access_token,
      body: { full_name: 'x'.repeat(1_100_000) },
    });
    expect(raw.status).toBe(413);
    expect(raw.json.detail).toMatch(/^Request body too large/);
  });
});

describe('sandbox checkout pages', () => {
  it('the sandbox checkout page of an unknown id is a 404 page', async () => {
    const response = await fetch(`${target.url}/sandbox/checkout/unknown`);
    expect(response.status).toBe(404);
    await expect(follow(`${target.url}/sandbox/checkout/unknown/pay`, { method: 'POST' })).rejects.toThrow(/no Location/);
  });
});
