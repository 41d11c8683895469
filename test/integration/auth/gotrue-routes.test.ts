import { describe, expect, it } from 'vitest';
import { confirmedUser, globalServer, latestMail, mailbox, signedIn, supabase } from '../helpers';

// The GoTrue routes supabase-js calls beyond sign-in (reference-app/server/README.md, "Auth"):
// reauthenticate with its mailed nonce, the identity-linking routes with manual linking off,
// and signInWithIdToken refused as GoTrue refuses a provider that is off.

const target = globalServer();

async function raw(path: string, init: { method?: string; token?: string } = {}) {
  const response = await fetch(`${target.url}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: target.authKey, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /reauthenticate', () => {
  it('mails a code that PUT /user takes once as nonce; a wrong nonce is 422', async () => {
    const credentials = await confirmedUser(target, 'reauth');
    const { client } = await signedIn(target, credentials);
    const before = (await mailbox(target, credentials.email)).length;
    const { data, error } = await client.auth.reauthenticate();
    expect(error).toBeNull();
    expect(data).toEqual({ user: null, session: null });
    const mail = await latestMail(target, credentials.email, before + 1);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toBeTruthy();

    const wrong = await client.auth.updateUser({ password: 'another-password-1', nonce: code === '000000' ? '111111' : '000000' });
    expect(wrong.error?.status).toBe(422);
    expect(wrong.error?.code).toBe('reauthentication_not_valid');

    const right = await client.auth.updateUser({ password: 'another-password-1', nonce: code! });
    expect(right.error).toBeNull();
    const reused = await client.auth.updateUser({ data: { n: 1 }, nonce: code! });
    expect(reused.error?.code).toBe('reauthentication_not_valid');
  });

  it('needs a session: 401 no_authorization without one', async () => {
    const answer = await raw('/reauthenticate');
    expect(answer.status).toBe(401);
    expect(answer.body.error_code).toBe('no_authorization');
  });
});

describe('identity linking (manual linking off, as GoTrue by default)', () => {
  it('answers 404 manual_linking_disabled to a signed-in user, 401 without a session', async () => {
    const { client, session } = await signedIn(target, await confirmedUser(target, 'link'));
    expect((await raw('/user/identities/authorize?provider=google', {})).status).toBe(401);
    const authorize = await raw('/user/identities/authorize?provider=google&skip_http_redirect=true', { token: session.access_token });
    expect(authorize.status).toBe(404);
    expect(authorize.body).toMatchObject({ error_code: 'manual_linking_disabled', msg: 'Manual linking is disabled' });

    const link = await client.auth.linkIdentity({ provider: 'google', options: { skipBrowserRedirect: true } });
    expect(link.error?.message).toContain('Manual linking is disabled');
    const { data } = await client.auth.getUserIdentities();
    const unlink = await client.auth.unlinkIdentity(data!.identities[0]!);
    expect(unlink.error?.status).toBe(404);
    expect(unlink.error?.code).toBe('manual_linking_disabled');
    // Nothing was unlinked.
    expect((await client.auth.getUserIdentities()).data?.identities).toHaveLength(1);
  });
});

describe('POST /token?grant_type=id_token', () => {
  it('refuses a provider that is off with GoTrue 400 provider_disabled text', async () => {
    const { data, error } = await supabase(target).auth.signInWithIdToken({ provider: 'google', token: 'an-id-token', nonce: 'n' });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('provider_disabled');
    expect(error?.message).toBe('Provider (issuer "https://accounts.google.com") is not enabled');
  });

  it('names the missing parameters and unknown providers as GoTrue does', async () => {
    const post = async (body: Record<string, string>) => {
      const response = await fetch(`${target.url}/auth/v1/token?grant_type=id_token`, {
        method: 'POST',
        headers: { apikey: target.authKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await post({ provider: 'google' })).toMatchObject({ status: 400, body: { error_description: 'id_token required' } });
    expect(await post({ id_token: 'x' })).toMatchObject({
      status: 400,
      body: { error_description: 'provider or client_id and issuer required' },
    });
    expect(await post({ id_token: 'x', provider: 'custom:mine' })).toMatchObject({
      status: 400,
      body: { msg: 'Custom OAuth providers are disabled' },
    });
    expect(await post({ id_token: 'x', provider: 'myspace' })).toMatchObject({
      status: 400,
      body: { msg: 'Custom OIDC provider "myspace" not allowed' },
    });
  });
});
