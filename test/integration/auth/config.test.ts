import { AuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { fakeSmtpServer } from '../fakes';
import { confirmedUser, DEMO, supabase, uniqueEmail } from '../helpers';

// Behaviour that depends on configuration, each on its own server: rate limits, the
// per-address e-mail interval, auto-confirmation, SMTP delivery and CORS for embedding sites.

describe('rate limits per client IP', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({
      env: { RATE_LIMIT_SIGN_IN: '2', RATE_LIMIT_SIGN_UP: '1', RATE_LIMIT_EMAIL_SENT: '3', EMAIL_MIN_INTERVAL: '0' },
    });
  });
  afterAll(() => server?.close());

  it('sign-in beyond the limit answers 429 over_request_rate_limit with Retry-After', async () => {
    expect((await supabase(server).auth.signInWithPassword(DEMO)).error).toBeNull();
    expect((await supabase(server).auth.signInWithPassword({ ...DEMO, password: 'wrong' })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    const { error } = await supabase(server).auth.signInWithPassword(DEMO);
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' });
    const raw = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: server.authKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(DEMO),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sign-up and the e-mail endpoints have their own limits', async () => {
    expect((await supabase(server).auth.signUp({ email: uniqueEmail('rl'), password: 'secret-123' })).error).toBeNull();
    const second = await supabase(server).auth.signUp({ email: uniqueEmail('rl'), password: 'secret-123' });
    expect(second.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    // The first sign-up sent one mail; two more are allowed, then the e-mail limit applies.
    expect((await supabase(server).auth.resetPasswordForEmail(DEMO.email)).error).toBeNull();
    expect((await supabase(server).auth.resetPasswordForEmail(DEMO.email)).error).toBeNull();
    const over = await supabase(server).auth.resetPasswordForEmail(DEMO.email);
    expect(over.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit', message: 'Email rate limit exceeded' });
    const resend = await supabase(server).auth.resend({ type: 'signup', email: DEMO.email });
    expect(resend.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
  });
});

describe('EMAIL_MIN_INTERVAL', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { EMAIL_MIN_INTERVAL: '60' } });
  });
  afterAll(() => server?.close());

  it('refuses a second mail to the same address within the interval, like GoTrue', async () => {
    const email = uniqueEmail('interval');
    expect((await supabase(server).auth.signUp({ email, password: 'secret-123' })).error).toBeNull();
    const { error } = await supabase(server).auth.resend({ type: 'signup', email });
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(error!.message).toMatch(/^For security purposes, you can only request this after (59|60) seconds\.$/);
  });
});

describe('MAILER_AUTOCONFIRM', () => {
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { MAILER_AUTOCONFIRM: 'true' } });
  });
  afterAll(() => server?.close());

  it('signs up straight into a session and reports an existing address as user_already_exists', async () => {
    const email = uniqueEmail('auto');
    const client = supabase(server);
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await client.auth.signUp({ email, password: 'secret-123' });
    expect(error).toBeNull();
    expect(data.session).toMatchObject({ token_type: 'bearer', user: { email } });
    expect(events).toContain('SIGNED_IN');
    const again = await supabase(server).auth.signUp({ email, password: 'secret-123' });
    expect(again.error).toBeInstanceOf(AuthApiError);
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists', message: 'User already registered' });
  });
});

describe('SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof fakeSmtpServer>>;
  let server: PlatformTestServer;
  beforeAll(async () => {
    smtp = await fakeSmtpServer();
    server = await startPlatformServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Limelight <no-reply@limelight.test>' } });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('sends the confirmation mail through SMTP and has no dev mailbox', async () => {
    const email = uniqueEmail('smtp');
    expect((await supabase(server).auth.signUp({ email, password: 'secret-123' })).error).toBeNull();
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to.join()).toContain(email);
    expect(mail.from).toContain('no-reply@limelight.test');
    expect(mail.data).toMatch(/Subject: Confirm your Limelight account/);
    expect(mail.data.replace(/=\r\n/g, '')).toContain(`${server.url}/auth/v1/verify?token=`);
    expect((await fetch(`${server.url}/dev/mailbox.json`)).status).toBe(404);
  });
});

describe('CORS_ORIGINS', () => {
  let server: PlatformTestServer;
  const embed = 'https://embed.example';
  beforeAll(async () => {
    server = await startPlatformServer({ env: { CORS_ORIGINS: `${embed}, https://other.example` } });
  });
  afterAll(() => server?.close());

  it('lets a configured origin call the auth API with the supabase-js headers', async () => {
    const preflight = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        Origin: embed,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'apikey, authorization, content-type, x-client-info, x-supabase-api-version',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(embed);
    const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const header of ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version'])
      expect(allowed).toContain(header);

    const response = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { Origin: embed, apikey: server.authKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(DEMO),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe(embed);
    expect(response.headers.get('access-control-expose-headers')).toMatch(/X-Supabase-Api-Version/i);
  });

  it('lets it call the platform API and read /config.json; other origins get no CORS grant', async () => {
    const api = await fetch(`${server.url}/v1/model_management/model_categories`, { headers: { Origin: embed } });
    expect(api.headers.get('access-control-allow-origin')).toBe(embed);
    const config = await fetch(`${server.url}/config.json`, { headers: { Origin: embed } });
    expect(config.headers.get('access-control-allow-origin')).toBe(embed);
    const evil = await fetch(`${server.url}/v1/model_management/model_categories`, { headers: { Origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('accepts redirect_to on a configured embedding origin', async () => {
    const email = uniqueEmail('embed');
    await supabase(server).auth.signUp({
      email,
      password: 'secret-123',
      options: { emailRedirectTo: `${embed}/welcome?emailconfirmed=true` },
    });
    const mails = (await (await fetch(`${server.url}/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as Array<{
      links: string[];
    }>;
    const link = new URL(mails[0]!.links.find((l) => l.includes('/verify'))!);
    expect(link.searchParams.get('redirect_to')).toBe(`${embed}/welcome?emailconfirmed=true`);
    expect(await confirmedUser(server, 'cors')).toMatchObject({ email: expect.any(String) });
  });
});
