import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { DEMO, follow, fragmentOf, globalServer, latestMail, mailbox, supabase, uniqueEmail, verifyLinkOf } from '../helpers';

// Sign-up with e-mail confirmation through the unmodified supabase-js client (issue 3; product-rules §4:
// "Sign-up requires the user to confirm the email through a link carrying emailconfirmed=true").

const target = globalServer();
const appRedirect = `${target.url}/signinup?page_state=1&emailconfirmed=true`;

describe('signUp with e-mail confirmation', () => {
  it('returns the user without a session and mails a confirmation link', async () => {
    const email = uniqueEmail('signup');
    const { data, error } = await supabase().auth.signUp({
      email,
      password: 'secret-123',
      options: { emailRedirectTo: appRedirect, data: { full_name: 'Ada' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email, aud: 'authenticated', role: 'authenticated', is_anonymous: false });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.confirmation_sent_at).toEqual(expect.any(String));
    expect(data.user!.identities).toHaveLength(1);
    expect(data.user!.identities![0]).toMatchObject({ provider: 'email', identity_data: { email, email_verified: false } });
    expect(data.user!.user_metadata).toMatchObject({ full_name: 'Ada', email, email_verified: false });

    const mail = await latestMail(target, email);
    expect(mail.subject).toMatch(/confirm/i);
    const link = new URL(verifyLinkOf(mail));
    expect(link.origin).toBe(target.url);
    expect(link.searchParams.get('type')).toBe('signup');
    expect(link.searchParams.get('redirect_to')).toBe(appRedirect);
    expect(mail.text).toContain(link.toString());
    expect(mail.text).toMatch(/\b\d{6}\b/); // the one-time code
  });

  it('refuses the password before confirmation with email_not_confirmed, then the link confirms and signs in', async () => {
    const email = uniqueEmail('confirm');
    const client = supabase();
    await client.auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: appRedirect } });

    const early = await client.auth.signInWithPassword({ email, password: 'secret-123' });
    expect(early.error).toBeInstanceOf(AuthApiError);
    expect(early.error).toMatchObject({ status: 400, code: 'email_not_confirmed', message: 'Email not confirmed' });

    const { status, location } = await follow(verifyLinkOf(await latestMail(target, email)));
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(appRedirect);
    expect(location.searchParams.get('emailconfirmed')).toBe('true');
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('signup');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBe(3600);
    expect(fragment.get('refresh_token')).toBeTruthy();

    // The fragment's session is a real one.
    const user = await client.auth.getUser(fragment.get('access_token')!);
    expect(user.data.user).toMatchObject({ email, user_metadata: { email_verified: true } });
    expect(user.data.user!.email_confirmed_at).toEqual(expect.any(String));

    const signIn = await client.auth.signInWithPassword({ email, password: 'secret-123' });
    expect(signIn.error).toBeNull();
    expect(signIn.data.user!.identities![0]!.identity_data).toMatchObject({ email_verified: true });
  });

  it('answers a used or unknown link with the otp_expired error on the redirect', async () => {
    const email = uniqueEmail('reuse');
    await supabase().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: appRedirect } });
    const link = verifyLinkOf(await latestMail(target, email));
    expect((await follow(link)).status).toBe(303);
    const again = await follow(link);
    expect(again.status).toBe(303);
    expect(Object.fromEntries(fragmentOf(again.location))).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    });
    const bogus = await follow(`${target.url}/auth/v1/verify?token=nope&type=signup&redirect_to=${encodeURIComponent(appRedirect)}`);
    expect(fragmentOf(bogus.location).get('error_code')).toBe('otp_expired');
  });

  it('sends a foreign redirect_to back to the site instead (no open redirect)', async () => {
    const email = uniqueEmail('foreign');
    await supabase().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: 'https://evil.example/steal' } });
    const link = new URL(verifyLinkOf(await latestMail(target, email)));
    expect(link.searchParams.get('redirect_to')).toBe(`${target.url}/signinup?page_state=1&emailconfirmed=true`);
    const { location } = await follow(link.toString());
    expect(location.origin).toBe(target.url);
    expect(location.searchParams.get('emailconfirmed')).toBe('true');
  });

  it('accepts localhost for a 127.0.0.1 site on the same port', async () => {
    const email = uniqueEmail('loopback');
    const local = appRedirect.replace('127.0.0.1', 'localhost');
    await supabase().auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: local } });
    expect(new URL(verifyLinkOf(await latestMail(target, email))).searchParams.get('redirect_to')).toBe(local);
  });

  it('hides an existing confirmed account behind an obfuscated user without identities', async () => {
    const { data, error } = await supabase().auth.signUp({ email: DEMO.email, password: 'another-password' });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user!.email).toBe(DEMO.email);
    expect(data.user!.identities).toEqual([]);
    expect(data.user!.id).not.toBe('de30de30-0000-4000-8000-000000000002');
    // No mail goes to the owner, and the password is unchanged.
    expect((await mailbox(target, DEMO.email)).filter((m) => /confirm/i.test(m.subject))).toHaveLength(0);
    expect((await supabase().auth.signInWithPassword(DEMO)).error).toBeNull();
  });

  it('rejects a short password with AuthWeakPasswordError (product-rules §5: at least 6 characters)', async () => {
    const { error } = await supabase().auth.signUp({ email: uniqueEmail('weak'), password: '12345' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    expect(error!.message).toBe('Password should be at least 6 characters.');
  });

  it('rejects a malformed address and a missing password with validation_failed', async () => {
    const bad = await supabase().auth.signUp({ email: 'not-an-address', password: 'secret-123' });
    expect(bad.error).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'Unable to validate email address: invalid format',
    });
    const empty = await supabase().auth.signUp({ email: uniqueEmail('nopw'), password: '' });
    expect(empty.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Signup requires a valid password' });
  });

  it('the 6-digit code of the mail verifies the address through verifyOtp', async () => {
    const email = uniqueEmail('otp');
    await supabase().auth.signUp({ email, password: 'secret-123' });
    const code = (await latestMail(target, email)).text.match(/\b(\d{6})\b/)![1]!;
    const wrong = await supabase().auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'signup' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const { data, error } = await supabase().auth.verifyOtp({ email, token: code, type: 'signup' });
    expect(error).toBeNull();
    expect(data.session!.user.email_confirmed_at).toEqual(expect.any(String));
  });

  it('requires the apikey header like Supabase', async () => {
    const response = await fetch(`${target.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'No API key found in request' });
    const wrong = await fetch(`${target.url}/auth/v1/settings`, { headers: { apikey: 'pk_wrong' } });
    expect(wrong.status).toBe(401);
    const settings = await fetch(`${target.url}/auth/v1/settings`, { headers: { apikey: target.authKey } });
    expect(await settings.json()).toMatchObject({
      external: { email: true, google: false, azure: false, github: false, facebook: false },
      mailer_autoconfirm: false,
    });
  });

  it('answers malformed JSON with bad_json, not a 5xx', async () => {
    const response = await fetch(`${target.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: target.authKey, 'Content-Type': 'application/json' },
      body: '{"email":',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await response.json()).toMatchObject({ code: 'bad_json' });
  });
});

// A second mail of a kind to one address within EMAIL_MIN_INTERVAL (default 60 s) is refused
// (auth-rate-limits.test.ts); these flows send two, so their server turns the interval off.
describe('sign-up mails again (EMAIL_MIN_INTERVAL=0)', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { EMAIL_MIN_INTERVAL: '0' } });
  });
  afterAll(() => server?.close());

  it('signing up again before confirming mails a new link and keeps the same user', async () => {
    const email = uniqueEmail('twice');
    const first = await supabase(server).auth.signUp({ email, password: 'secret-123' });
    const firstLink = verifyLinkOf(await latestMail(server, email));
    const second = await supabase(server).auth.signUp({ email, password: 'secret-456' });
    expect(second.data.user!.id).toBe(first.data.user!.id);
    expect(second.data.user!.identities).toHaveLength(1);
    const secondLink = verifyLinkOf(await latestMail(server, email, 2));
    expect(secondLink).not.toBe(firstLink);
    // The older link is void; the newer one works, with the newer password.
    expect(fragmentOf((await follow(firstLink)).location).get('error_code')).toBe('otp_expired');
    expect(fragmentOf((await follow(secondLink)).location).get('access_token')).toBeTruthy();
    expect((await supabase(server).auth.signInWithPassword({ email, password: 'secret-456' })).error).toBeNull();
  });

  it('resend mails a fresh link to an unconfirmed address and answers {} for anyone else', async () => {
    const email = uniqueEmail('resend');
    await supabase(server).auth.signUp({ email, password: 'secret-123' });
    const { error } = await supabase(server).auth.resend({
      type: 'signup',
      email,
      options: { emailRedirectTo: `${server.url}/signinup?page_state=1&emailconfirmed=true` },
    });
    expect(error).toBeNull();
    const mails = await mailbox(server, email);
    expect(mails).toHaveLength(2);
    expect(new URL(verifyLinkOf(mails[0]!)).searchParams.get('redirect_to')).toBe(
      `${server.url}/signinup?page_state=1&emailconfirmed=true`,
    );
    expect(new Date(mails[0]!.created_at).getTime()).toBeGreaterThanOrEqual(new Date(mails[1]!.created_at).getTime());

    for (const other of [DEMO.email, uniqueEmail('nobody')]) {
      expect((await supabase(server).auth.resend({ type: 'signup', email: other })).error).toBeNull();
      expect(await mailbox(server, other).then((m) => m.filter((x) => /confirm/i.test(x.subject)))).toHaveLength(0);
    }
  });
});
