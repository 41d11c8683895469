import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { needsStepUp, SESSION_STATE_CACHE_MS } from '../../../reference-app/server/api';
import { apiClients, confirmedUser, globalServer, rawApi, signedIn, type Target } from '../helpers';

// Who may call /v1 (docs/security.md, "Platform API"): access declared where each feature is
// mounted; API keys refused on account routes; aal2 for changes and secret reads once the user
// has a verified MFA factor; a signed-out session's token stops working within seconds.

const target = globalServer();

async function withApiKey(server: Target = target) {
  const user = await signedIn(server, await confirmedUser(server, 'keyed'));
  const created = await apiClients(server, user.session.access_token).profile.createApiKey();
  if (!created.ok) throw new Error(created.error);
  return { ...user, token: user.session.access_token, key: created.data };
}

/** A user with a verified TOTP factor: returns an aal2 client and a fresh aal1 token. */
async function withVerifiedFactor() {
  const credentials = await confirmedUser(target, 'mfa-api');
  const { client } = await signedIn(target, credentials);
  const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
  if (enrolled.error) throw enrolled.error;
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.data.totp.secret) });
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: totp.generate() });
  if (verified.error) throw verified.error;
  const aal1 = await signedIn(target, credentials);
  return { aal2Token: verified.data.access_token, aal1Token: aal1.session.access_token };
}

describe('route access', () => {
  it('authenticates before validating: a stranger gets 401, not the body rules', async () => {
    const response = await rawApi(target, 'POST', '/v1/profile/update_profile', { body: { zip_code: '!' } });
    expect(response.status).toBe(401);
    expect(response.json.detail).toMatch(/^Not authenticated/);
  });

  it('an unknown path under a signed-in prefix is 404 with or without credentials', async () => {
    expect((await rawApi(target, 'GET', '/v1/profile/nothing_here')).status).toBe(404);
    expect((await rawApi(target, 'GET', '/v1/payment/nothing_here')).json).toEqual({ detail: 'No route GET /v1/payment/nothing_here' });
  });

  it('public routes next to signed-in ones under one prefix stay public', async () => {
    expect((await rawApi(target, 'GET', '/v1/payment/plans')).status).toBe(200);
    expect((await rawApi(target, 'GET', '/v1/payment/balance')).status).toBe(401);
  });

  it('the OpenAPI document marks exactly the guarded routes with the bearer scheme and 401/403', async () => {
    const doc = (await rawApi(target, 'GET', '/v1/openapi.json')).json as unknown as {
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    const createKey = doc.paths['/profile/create_api_key']!.post!;
    expect(createKey.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(createKey.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    expect(doc.paths['/model_management/model_categories']!.get!.security).toBeUndefined();
    expect(doc.paths['/model_management/model_descriptors']!.get!.security).toEqual([{}, { bearer: [] }]);
  });
});

describe('API key scope', () => {
  const accountRoutes: Array<[string, string, unknown?]> = [
    ['POST', '/v1/profile/create_api_key', { expires_in_days: 3650 }],
    ['POST', '/v1/profile/delete_api_key', { api_key_id: '00000000-0000-4000-8000-000000000000' }],
    ['GET', '/v1/profile/api_keys'],
    ['GET', '/v1/profile/get_pat_token'],
    ['POST', '/v1/profile/upsert_pat', { foreign_username: 'someone', credential_alias: 'x', pat: 'dckr_pat_123456789' }],
    ['POST', '/v1/profile/update_profile', { city: 'Elsewhere' }],
    ['GET', '/v1/profile/profile'],
    ['POST', '/v1/payment/buy_credit', { quantity: 10 }],
    ['GET', '/v1/payment/balance'],
    ['POST', '/v1/payment/subscription/create', { plan_type: 'plus', success_url: '', cancel_url: '' }],
    ['POST', '/v1/payment/subscription/cancel'],
    ['POST', '/v1/support/support', { topic: 't', subject: 's', message: 'm' }],
  ];

  it('refuses every account route to a key with 403 and says what keys are for', async () => {
    const { key } = await withApiKey();
    for (const [method, path, body] of accountRoutes) {
      const response = await rawApi(target, method, path, { token: key.secret, ...(body ? { body } : {}) });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
      expect(response.json.detail).toBe(
        `API keys (lime_…) can run and read services only; ${method} ${path} is an account route: call it with a signed-in access token`,
      );
    }
  });

  it('a key cannot mint a key or delete itself; the same calls work with the access token', async () => {
    const { key, token } = await withApiKey();
    const viaKey = apiClients(target, key.secret).profile;
    expect(await viaKey.createApiKey(3650)).toMatchObject({ ok: false, status: 403 });
    expect(await viaKey.deleteApiKey(key.id)).toMatchObject({ ok: false, status: 403 });
    const viaToken = apiClients(target, token).profile;
    const listed = await viaToken.apiKeys();
    expect(listed.ok && listed.data.map((k) => k.id)).toEqual([key.id]);
    expect(await viaToken.deleteApiKey(key.id)).toMatchObject({ ok: true });
  });

  it('keys still read services, the caller’s private ones included', async () => {
    const { key } = await withApiKey();
    const mm = apiClients(target, key.secret).modelManagement;
    expect(await mm.modelHostingInformation({ model_id: 'lime-chat-8b' })).toMatchObject({ ok: true, data: { model_id: 'lime-chat-8b' } });
    expect(await mm.modelDescriptors()).toMatchObject({ ok: true });
  });
});

describe('MFA on the platform API', () => {
  it('needsStepUp: every change except the sign-in bookkeeping, and the secret reads', () => {
    expect(needsStepUp('POST', '/profile/create_api_key')).toBe(true);
    expect(needsStepUp('POST', '/payment/buy_credit')).toBe(true);
    expect(needsStepUp('DELETE', '/jobs/:id')).toBe(true);
    expect(needsStepUp('GET', '/profile/get_pat_token')).toBe(true);
    expect(needsStepUp('GET', '/profile/api_keys')).toBe(true);
    expect(needsStepUp('POST', '/profile/sign_in_sign_up')).toBe(false);
    expect(needsStepUp('GET', '/profile/profile')).toBe(false);
    expect(needsStepUp('GET', '/payment/balance')).toBe(false);
  });

  it('an aal1 token of a user with a verified factor may read, not change or read secrets', async () => {
    const { aal1Token, aal2Token } = await withVerifiedFactor();
    const aal1 = apiClients(target, aal1Token);
    expect(await aal1.profile.signInSignUp()).toMatchObject({ ok: true });
    expect(await aal1.profile.profile()).toMatchObject({ ok: true });
    expect(await aal1.payment.balance()).toMatchObject({ ok: true });
    const refused = await aal1.profile.createApiKey();
    expect(refused).toMatchObject({
      ok: false,
      status: 403,
      error: 'This account uses two-factor authentication: verify a factor (an aal2 session) before POST /v1/profile/create_api_key',
    });
    expect(await aal1.profile.getPatToken()).toMatchObject({ ok: false, status: 403 });
    expect(await aal1.payment.buyCredit(5)).toMatchObject({ ok: false, status: 403 });
    expect(await aal1.profile.updateProfile({ city: 'Aal1' })).toMatchObject({ ok: false, status: 403 });

    const aal2 = apiClients(target, aal2Token);
    expect(await aal2.profile.createApiKey()).toMatchObject({ ok: true });
    expect(await aal2.profile.getPatToken()).toMatchObject({ ok: true });
    expect(await aal2.profile.updateProfile({ city: 'Aal2' })).toMatchObject({ ok: true, data: { city: 'Aal2' } });
  });

  it('a user without a verified factor changes data at aal1', async () => {
    const { token } = await withApiKey();
    expect(await apiClients(target, token).profile.updateProfile({ city: 'Plain' })).toMatchObject({ ok: true });
  });
});

describe('revoked sessions', () => {
  /** Polls until the token is refused; the bound is the documented revocation delay. */
  async function refusedWithin(token: string, ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      const response = await rawApi(target, 'GET', '/v1/payment/balance', { token });
      if (response.status === 401) return response.json.detail;
      if (Date.now() > deadline) return `still accepted (${response.status})`;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('a signed-out session’s access token is refused within the cache lifetime', async () => {
    const { client, token } = await withApiKey();
    expect((await rawApi(target, 'GET', '/v1/payment/balance', { token })).status).toBe(200);
    await client.auth.signOut();
    expect(await refusedWithin(token, SESSION_STATE_CACHE_MS + 1000)).toBe(
      'Session ended (signed out, password changed or revoked): sign in again',
    );
  });

  it('"sign out other sessions" ends the others and keeps this one', async () => {
    const credentials = await confirmedUser(target, 'others');
    const first = await signedIn(target, credentials);
    const second = await signedIn(target, credentials);
    await second.client.auth.signOut({ scope: 'others' });
    expect(await refusedWithin(first.session.access_token, SESSION_STATE_CACHE_MS + 1000)).toMatch(/^Session ended/);
    expect((await rawApi(target, 'GET', '/v1/payment/balance', { token: second.session.access_token })).status).toBe(200);
  });

  it('a signed-out token counts as anonymous on the catalogue, which still loads', async () => {
    const { client, token } = await withApiKey();
    await client.auth.signOut();
    await refusedWithin(token, SESSION_STATE_CACHE_MS + 1000);
    const descriptors = await rawApi(target, 'GET', '/v1/model_management/model_descriptors', { token });
    expect(descriptors.status).toBe(200);
  });
});
