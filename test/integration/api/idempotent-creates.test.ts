import { describe, expect, it } from 'vitest';
import { confirmedUser, globalServer, rawApi, signedIn } from '../helpers';

// Idempotency-Key on the account creates (docs/jobs.md, "Idempotency-Key"): the rules of
// POST /v1/jobs, kept in idempotency_keys. A retried purchase charges once, a retried key
// create answers the same key, and the same key for a different request is refused.

// The shared server of the global setup: every test has users of its own.
const server = globalServer();

async function account() {
  const { session } = await signedIn(server, await confirmedUser(server, 'idempotent'));
  const post = (path: string, body: unknown, key?: string) =>
    rawApi(server, 'POST', path, { token: session.access_token, body, headers: key ? { 'Idempotency-Key': key } : {} });
  const get = (path: string) => rawApi(server, 'GET', path, { token: session.access_token });
  return { post, get };
}

describe('Idempotency-Key on account creates', () => {
  it('parallel duplicate purchases with one key charge once and answer the same checkout', async () => {
    const { post, get } = await account();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('/v1/payment/buy_credit', { quantity: 40 }, 'buy-1')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    expect((await get('/v1/payment/balance')).json).toMatchObject({ balance: 540 });
    // Without a key, each purchase is its own.
    await post('/v1/payment/buy_credit', { quantity: 40 });
    await post('/v1/payment/buy_credit', { quantity: 40 });
    expect((await get('/v1/payment/balance')).json).toMatchObject({ balance: 620 });
  });

  it('a replay after success answers the same API key without creating a second one', async () => {
    const { post, get } = await account();
    const first = await post('/v1/profile/create_api_key', { expires_in_days: 30 }, 'key-1');
    expect(first.status).toBe(200);
    const again = await post('/v1/profile/create_api_key', { expires_in_days: 30 }, 'key-1');
    expect(again).toMatchObject({ status: 200, json: { id: first.json.id } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await get('/v1/profile/api_keys')).json).toHaveLength(1);
  });

  it('the same key with a different request is refused with 409, and keys are per user', async () => {
    const { post, get } = await account();
    expect((await post('/v1/payment/buy_credit', { quantity: 10 }, 'shared')).status).toBe(200);
    const different = await post('/v1/payment/buy_credit', { quantity: 11 }, 'shared');
    expect(different).toMatchObject({ status: 409, json: { detail: expect.stringContaining('Idempotency-Key shared was already used') } });
    const otherRoute = await post('/v1/profile/create_api_key', {}, 'shared');
    expect(otherRoute.status).toBe(409);
    expect((await get('/v1/payment/balance')).json).toMatchObject({ balance: 510 });
    // Another user's same key is theirs alone.
    const other = await account();
    expect((await other.post('/v1/payment/buy_credit', { quantity: 11 }, 'shared')).status).toBe(200);
    expect((await other.get('/v1/payment/balance')).json).toMatchObject({ balance: 511 });
  });

  it('a refused create releases its key, so the retry runs', async () => {
    const { post, get } = await account();
    expect((await post('/v1/payment/buy_credit', { quantity: -1 }, 'retry')).status).toBe(422);
    expect((await post('/v1/payment/buy_credit', { quantity: 5 }, 'retry')).status).toBe(200);
    expect((await get('/v1/payment/balance')).json).toMatchObject({ balance: 505 });
  });
});
