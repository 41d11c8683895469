import { AuthApiError, AuthSessionMissingError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { confirmedUser, DEMO, DEMO_ID, globalServer, signedIn, supabase } from '../helpers';

// Password sign-in, sessions, refresh-token rotation with reuse detection, getUser,
// updateUser, signOut scopes and getClaims against the JWKS, through supabase-js.

const target = globalServer();

describe('signInWithPassword', () => {
  it('signs in the demo user with a Supabase-shaped session and access token', async () => {
    const { data, error } = await supabase().auth.signInWithPassword(DEMO);
    expect(error).toBeNull();
    const session = data.session!;
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(session.user).toMatchObject({ id: DEMO_ID, email: DEMO.email, aud: 'authenticated', role: 'authenticated' });
    expect(session.user.last_sign_in_at).toEqual(expect.any(String));

    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      iss: `${target.url}/auth/v1`,
      sub: DEMO_ID,
      aud: 'authenticated',
      role: 'authenticated',
      email: DEMO.email,
      phone: '',
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: expect.objectContaining({ full_name: 'Dana Demo' }),
      session_id: expect.any(String),
    });
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('answers a wrong password and an unknown address alike with invalid_credentials', async () => {
    for (const credentials of [
      { ...DEMO, password: 'wrong-password' },
      { email: 'nobody@example.test', password: 'whatever' },
    ]) {
      const { data, error } = await supabase().auth.signInWithPassword(credentials);
      expect(data.session).toBeNull();
      expect(error).toBeInstanceOf(AuthApiError);
      expect(error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    }
  });

  it('getClaims verifies the token with the ES256 key from /.well-known/jwks.json', async () => {
    const { client, session } = await signedIn(target, DEMO);
    const jwks = await fetch(`${target.url}/auth/v1/.well-known/jwks.json`);
    expect(jwks.headers.get('cache-control')).toBe('public, max-age=600');
    const { keys } = (await jwks.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', key_ops: ['verify'] });
    expect(keys[0]).not.toHaveProperty('d');

    const { data, error } = await client.auth.getClaims();
    expect(error).toBeNull();
    expect(data!.header).toMatchObject({ alg: 'ES256', kid: keys[0]!.kid });
    expect(data!.claims).toMatchObject({ sub: DEMO_ID, session_id: decodeJwt(session.access_token).session_id });

    const forged = session.access_token.slice(0, -4) + (session.access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const bad = await client.auth.getClaims(forged);
    expect(bad.error?.message).toMatch(/signature/i);
  });

  it('getUser answers GoTrue errors for missing, malformed and expired-session tokens', async () => {
    const noToken = await fetch(`${target.url}/auth/v1/user`, { headers: { apikey: target.authKey } });
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ code: 'no_authorization' });
    const publishable = await supabase().auth.getUser(target.authKey);
    expect(publishable.error).toMatchObject({ status: 403, code: 'bad_jwt' });
  });
});

describe('refresh tokens', () => {
  it('rotates: each refresh returns a new refresh token and a new access token for the same session', async () => {
    const { client, session } = await signedIn(target, DEMO);
    const { data, error } = await client.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(data.session!.access_token).session_id).toBe(decodeJwt(session.access_token).session_id);
    const again = await client.auth.refreshSession({ refresh_token: data.session!.refresh_token });
    expect(again.error).toBeNull();
  });

  it('hands a client that lost the answer the same active token again', async () => {
    const { session } = await signedIn(target, DEMO);
    const first = await supabase().auth.refreshSession({ refresh_token: session.refresh_token });
    const retry = await supabase().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(retry.error).toBeNull();
    expect(retry.data.session!.refresh_token).toBe(first.data.session!.refresh_token);
  });

  it('two concurrent refreshes of one token both succeed with the same child', async () => {
    const { session } = await signedIn(target, DEMO);
    const [a, b] = await Promise.all([
      supabase().auth.refreshSession({ refresh_token: session.refresh_token }),
      supabase().auth.refreshSession({ refresh_token: session.refresh_token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session!.refresh_token).toBe(b.data.session!.refresh_token);
  });

  it('rejects an unknown refresh token with refresh_token_not_found', async () => {
    const { error } = await supabase().auth.refreshSession({ refresh_token: 'not-a-token' });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'refresh_token_not_found',
      message: 'Invalid Refresh Token: Refresh Token Not Found',
    });
  });

  it('a missing refresh_token is an invalid_request', async () => {
    const response = await fetch(`${target.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: target.authKey, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: 'refresh_token required' });
  });
});

describe('refresh token reuse detection (REFRESH_TOKEN_REUSE_INTERVAL=0)', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { REFRESH_TOKEN_REUSE_INTERVAL: '0' } });
  });
  afterAll(() => server?.close());

  it('reusing an old token ends the whole session: refresh_token_already_used, then the session is gone', async () => {
    const { session } = await signedIn(server, DEMO);
    const a = session.refresh_token;
    const b = (await supabase(server).auth.refreshSession({ refresh_token: a })).data.session!;
    const c = (await supabase(server).auth.refreshSession({ refresh_token: b.refresh_token })).data.session!;
    await new Promise((r) => setTimeout(r, 20));

    const reuse = await supabase(server).auth.refreshSession({ refresh_token: a });
    expect(reuse.error).toBeInstanceOf(AuthApiError);
    expect(reuse.error).toMatchObject({ status: 400, code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' });

    // The thief's and the owner's tokens are both dead now.
    const owner = await supabase(server).auth.refreshSession({ refresh_token: c.refresh_token });
    expect(owner.error).toMatchObject({ code: 'refresh_token_not_found' });
    const user = await supabase(server).auth.getUser(c.access_token);
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
  });
});

describe('updateUser', () => {
  it('merges metadata key by key and deletes keys set to null', async () => {
    const { client } = await signedIn(target, await confirmedUser(target, 'meta'));
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const first = await client.auth.updateUser({ data: { theme: 'dark', company: 'Acme' } });
    expect(first.error).toBeNull();
    expect(first.data.user!.user_metadata).toMatchObject({ theme: 'dark', company: 'Acme', email_verified: true });
    const second = await client.auth.updateUser({ data: { company: null, city: 'Lyon' } });
    expect(second.data.user!.user_metadata).toMatchObject({ theme: 'dark', city: 'Lyon' });
    expect(second.data.user!.user_metadata).not.toHaveProperty('company');
    expect(events).toContain('USER_UPDATED');
    // The identity's fields are the server's: a client cannot mark its address verified.
    const spoof = await client.auth.updateUser({ data: { email_verified: false, email: 'someone@else.test' } });
    expect(spoof.data.user!.user_metadata).toMatchObject({ email_verified: true, email: spoof.data.user!.email });
  });

  it('changes the password, refusing weak and unchanged ones, and ends the other sessions', async () => {
    const credentials = await confirmedUser(target, 'pw');
    const other = await signedIn(target, credentials);
    const { client } = await signedIn(target, credentials);

    const weak = await client.auth.updateUser({ password: '123' });
    expect(weak.error).toBeInstanceOf(AuthWeakPasswordError);
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    const same = await client.auth.updateUser({ password: credentials.password });
    expect(same.error).toMatchObject({
      status: 422,
      code: 'same_password',
      message: 'New password should be different from the old password.',
    });

    const { error } = await client.auth.updateUser({ password: 'a-brand-new-password' });
    expect(error).toBeNull();
    expect((await client.auth.getUser()).error).toBeNull();
    expect((await supabase().auth.getUser(other.session.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await supabase().auth.signInWithPassword(credentials)).error).toMatchObject({ code: 'invalid_credentials' });
    expect((await supabase().auth.signInWithPassword({ ...credentials, password: 'a-brand-new-password' })).error).toBeNull();
  });
});

describe('signOut scopes', () => {
  it('local ends only this session; getUser with its token then raises AuthSessionMissingError', async () => {
    const credentials = await confirmedUser(target, 'local');
    const one = await signedIn(target, credentials);
    const two = await signedIn(target, credentials);
    const events: string[] = [];
    one.client.auth.onAuthStateChange((event) => events.push(event));
    expect((await one.client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(events).toContain('SIGNED_OUT');
    expect((await supabase().auth.getUser(one.session.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await supabase().auth.getUser(two.session.access_token)).error).toBeNull();
    const refresh = await supabase().auth.refreshSession({ refresh_token: one.session.refresh_token });
    expect(refresh.error).toMatchObject({ code: 'refresh_token_not_found' });
  });

  it('others keeps this session and ends the rest', async () => {
    const credentials = await confirmedUser(target, 'others');
    const one = await signedIn(target, credentials);
    const two = await signedIn(target, credentials);
    expect((await one.client.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await supabase().auth.getUser(one.session.access_token)).error).toBeNull();
    expect((await supabase().auth.getUser(two.session.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('global (the default) ends every session of the user', async () => {
    const credentials = await confirmedUser(target, 'global');
    const one = await signedIn(target, credentials);
    const two = await signedIn(target, credentials);
    expect((await one.client.auth.signOut()).error).toBeNull();
    for (const s of [one.session, two.session]) {
      const { error } = await supabase().auth.getUser(s.access_token);
      expect(error).toBeInstanceOf(AuthSessionMissingError);
      expect(error!.message).toBe('Auth session missing!');
    }
    // Signing out twice is harmless.
    expect((await two.client.auth.signOut()).error).toBeNull();
  });

  it('rejects an unknown scope', async () => {
    const { session } = await signedIn(target, DEMO);
    const response = await fetch(`${target.url}/auth/v1/logout?scope=everyone`, {
      method: 'POST',
      headers: { apikey: target.authKey, Authorization: `Bearer ${session.access_token}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'validation_failed' });
  });
});
