import { GoTrueAdminApi } from '@supabase/auth-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceRoleKey } from '../../../reference-app/server/auth';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { follow, fragmentOf, latestMail, signedIn, supabase, uniqueEmail, verifyLinkOf, type Target } from '../helpers';

// The GoTrue admin API for the service-role key (reference-app/server/README.md, "Auth"):
// who may call it, users created, listed page by page, updated and deleted, generate_link
// producing links that sign in, and invitations by mail. Against a server of its own, whose
// service-role key the test reads from its database.

let server: PlatformTestServer;
let target: Target;
let serviceKey: string;

beforeAll(async () => {
  server = await startPlatformServer();
  target = { url: server.url, authKey: server.authKey };
  serviceKey = await serviceRoleKey(server.platform.database.db);
}, 60_000);
afterAll(() => server?.close());

/** auth-js's admin client as a server holding the service-role key uses it. */
const admin = () =>
  new GoTrueAdminApi({ url: `${target.url}/auth/v1`, headers: { apikey: serviceKey, Authorization: `Bearer ${serviceKey}` } });

async function call(path: string, init: { method?: string; bearer?: string; apikey?: string; body?: unknown } = {}) {
  const response = await fetch(`${target.url}/auth/v1${path}`, {
    method: init.method ?? 'GET',
    headers: {
      apikey: init.apikey ?? target.authKey,
      'content-type': 'application/json',
      ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe('who may call the admin API', () => {
  it('refuses no token (401), the publishable key and a user session (403 not_admin)', async () => {
    const missing = await call('/admin/users');
    expect(missing.status).toBe(401);
    expect(missing.body.error_code).toBe('no_authorization');

    const publishable = await call('/admin/users', { bearer: target.authKey });
    expect(publishable.status).toBe(403);
    expect(publishable.body).toMatchObject({ error_code: 'not_admin', msg: 'User not allowed' });

    const { email } = { email: uniqueEmail('plain') };
    const { error } = await admin().createUser({ email, password: 'a-good-password-1', email_confirm: true });
    expect(error).toBeNull();
    const { session } = await signedIn(target, { email, password: 'a-good-password-1' });
    for (const [method, path] of [
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['POST', '/admin/generate_link'],
      ['POST', '/invite'],
    ] as const) {
      const answer = await call(path, {
        method,
        bearer: session.access_token,
        apikey: serviceKey,
        body: method === 'POST' ? {} : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error_code).toBe('not_admin');
    }
  });

  it('accepts the service-role key as apikey on the public routes too', async () => {
    expect((await call('/settings', { apikey: serviceKey })).status).toBe(200);
    expect((await call('/settings', { apikey: 'sk_lime_wrong' })).status).toBe(401);
  });
});

describe('users', () => {
  it('creates, reads, updates (metadata, ban, confirmation) and deletes a user', async () => {
    const email = uniqueEmail('admin-made');
    const created = await admin().createUser({
      email,
      password: 'first-password-1',
      user_metadata: { plan: 'x' },
      app_metadata: { roles: ['editor'] },
    });
    expect(created.error).toBeNull();
    const user = created.data.user!;
    expect(user).toMatchObject({ email, user_metadata: { plan: 'x' }, app_metadata: { provider: 'email', roles: ['editor'] } });
    expect(user.email_confirmed_at).toBeUndefined();
    expect(user.identities).toHaveLength(1);

    const duplicate = await call('/admin/users', { method: 'POST', bearer: serviceKey, body: { email } });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.error_code).toBe('email_exists');

    const read = await admin().getUserById(user.id);
    expect(read.data.user?.id).toBe(user.id);
    expect((await call('/admin/users/not-a-uuid', { bearer: serviceKey })).body).toMatchObject({ error_code: 'validation_failed' });
    const unknown = await call('/admin/users/00000000-0000-4000-8000-000000000000', { bearer: serviceKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error_code).toBe('user_not_found');

    const updated = await admin().updateUserById(user.id, {
      email_confirm: true,
      user_metadata: { plan: null, team: 'red' },
      password: 'second-password-2',
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.email_confirmed_at).toBeTruthy();
    expect(updated.data.user?.user_metadata).toMatchObject({ team: 'red' });
    expect(updated.data.user?.user_metadata.plan).toBeUndefined();
    expect((await supabase(target).auth.signInWithPassword({ email, password: 'second-password-2' })).error).toBeNull();

    const banned = await admin().updateUserById(user.id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    const refused = await supabase(target).auth.signInWithPassword({ email, password: 'second-password-2' });
    expect(refused.error?.code).toBe('user_banned');
    const badBan = await call(`/admin/users/${user.id}`, { method: 'PUT', bearer: serviceKey, body: { ban_duration: 'forever' } });
    expect(badBan.status).toBe(400);

    expect((await admin().deleteUser(user.id)).error).toBeNull();
    expect((await admin().getUserById(user.id)).error?.status).toBe(404);
  });

  it('lists users newest first, page by page, with the total and GoTrue Link headers', async () => {
    const mark = uniqueEmail('page').split('@')[0]!.slice(0, 17);
    const emails: string[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `${mark}-${i}@example.test`;
      emails.push(email);
      expect((await admin().createUser({ email, password: 'page-password-1' })).error).toBeNull();
    }
    const first = await call(`/admin/users?page=1&per_page=2&filter=${mark}`, { bearer: serviceKey });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-total-count')).toBe('5');
    expect(first.headers.get('link')).toMatch(/page=2[^>]*>; rel="next", <[^>]*page=3[^>]*>; rel="last"/);
    expect((first.body.users as { email: string }[]).map((u) => u.email)).toEqual([emails[4], emails[3]]);
    expect(first.body.aud).toBe('authenticated');

    const { data, error } = await admin().listUsers({ page: 3, perPage: 2 });
    expect(error).toBeNull();
    expect('total' in data && data.total).toBeGreaterThanOrEqual(5);
    const last = await call(`/admin/users?page=3&per_page=2&filter=${mark}`, { bearer: serviceKey });
    expect((last.body.users as { email: string }[]).map((u) => u.email)).toEqual([emails[0]]);
    expect(last.headers.get('link')).not.toContain('rel="next"');

    const bad = await call('/admin/users?page=abc', { bearer: serviceKey });
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe('validation_failed');
  });
});

describe('generate_link', () => {
  it('makes a magic link and a recovery link that sign the user in', async () => {
    const email = uniqueEmail('linked');
    await admin().createUser({ email, password: 'link-password-1', email_confirm: true });
    for (const type of ['magiclink', 'recovery'] as const) {
      const { data, error } = await admin().generateLink({ type, email, options: { redirectTo: `${target.url}/account` } });
      expect(error).toBeNull();
      expect(data.properties!.verification_type).toBe(type);
      expect(data.properties!.email_otp).toMatch(/^\d{6}$/);
      const { status, location } = await follow(data.properties!.action_link);
      expect(status).toBe(303);
      expect(location.pathname).toBe('/account');
      expect(fragmentOf(location).get('access_token')).toBeTruthy();
      expect(fragmentOf(location).get('type')).toBe(type);
    }
  });

  it('makes a signup link that confirms a new user, and an invite and email change link', async () => {
    const email = uniqueEmail('gen-signup');
    const signup = await admin().generateLink({ type: 'signup', email, password: 'signup-password-1' });
    expect(signup.error).toBeNull();
    expect(signup.data.user?.email_confirmed_at).toBeUndefined();
    expect(signup.data.user?.invited_at).toBeUndefined();
    // The hashed token is what POST /verify takes (verifyOtp with token_hash).
    const verified = await supabase(target).auth.verifyOtp({ token_hash: signup.data.properties!.hashed_token, type: 'signup' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    const again = await admin().generateLink({ type: 'signup', email, password: 'signup-password-1' });
    expect(again.error?.code).toBe('email_exists');

    const invited = uniqueEmail('gen-invite');
    const invite = await admin().generateLink({ type: 'invite', email: invited });
    expect(new URL(invite.data.properties!.action_link).searchParams.get('type')).toBe('invite');
    expect(Date.now() - Date.parse(invite.data.user!.invited_at!)).toBeLessThan(60_000);
    expect((await follow(invite.data.properties!.action_link)).status).toBe(303);

    const newEmail = uniqueEmail('gen-new');
    const change = await admin().generateLink({ type: 'email_change_new', email, newEmail });
    expect(change.error).toBeNull();
    const { location } = await follow(change.data.properties!.action_link);
    expect(fragmentOf(location).get('access_token')).toBeTruthy();
    expect((await admin().getUserById(change.data.user!.id)).data.user?.email).toBe(newEmail);

    const unknownRecovery = await call('/admin/generate_link', {
      method: 'POST',
      bearer: serviceKey,
      body: { type: 'recovery', email: uniqueEmail('nobody') },
    });
    expect(unknownRecovery.status).toBe(404);
    expect(unknownRecovery.body.error_code).toBe('user_not_found');
    const badType = await call('/admin/generate_link', { method: 'POST', bearer: serviceKey, body: { type: 'teleport', email } });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe('Invalid email action link type requested: teleport');
  });

  it('invites by mail: the link confirms the address and signs in', async () => {
    const email = uniqueEmail('invitee');
    const { data, error } = await admin().inviteUserByEmail(email, { data: { team: 'blue' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata.team).toBe('blue');
    // GoTrue's invited_at: when the invitation was made (the auth-js suite checks it too).
    expect(Date.now() - Date.parse(data.user!.invited_at!)).toBeLessThan(60_000);
    expect((await admin().getUserById(data.user!.id)).data.user?.invited_at).toBe(data.user!.invited_at);
    const { status, location } = await follow(verifyLinkOf(await latestMail(target, email)));
    expect(status).toBe(303);
    expect(fragmentOf(location).get('type')).toBe('invite');
  });
});
