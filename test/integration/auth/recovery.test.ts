import { AuthImplicitGrantRedirectError } from '@supabase/supabase-js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  confirmedUser,
  DEMO,
  follow,
  fragmentOf,
  globalServer,
  latestMail,
  mailbox,
  supabase,
  uniqueEmail,
  verifyLinkOf,
} from '../helpers';

// Password recovery: resetPasswordForEmail -> mail -> /verify?type=recovery -> 303 back to the
// app with the session in the fragment -> supabase-js (detectSessionInUrl) emits
// PASSWORD_RECOVERY -> updateUser({ password }). Also the PKCE variant, magic links and the
// e-mail change confirmation.

const target = globalServer();
const resetPage = `${target.url}/signinup?passwordreset=true`;

/**
 * supabase-js reads the session from the URL only in a browser (window + document). This is
 * the least of a browser it needs: a location (the client clears its hash), history.replaceState
 * and event listeners.
 */
function pretendBrowserAt(href: string) {
  const location = new URL(href);
  const win = {
    location: {
      get href() {
        return location.toString();
      },
      get origin() {
        return location.origin;
      },
      get hash() {
        return location.hash;
      },
      set hash(value: string) {
        location.hash = value;
      },
      get search() {
        return location.search;
      },
    },
    history: {
      state: null,
      replaceState(_state: unknown, _title: string, url: string) {
        const next = new URL(url, location);
        location.hash = next.hash;
        location.search = next.search;
      },
    },
    addEventListener() {},
    removeEventListener() {},
  };
  Object.assign(globalThis, { window: win, document: { visibilityState: 'visible', addEventListener() {}, removeEventListener() {} } });
  return win;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
  delete (globalThis as { document?: unknown }).document;
});

async function recoveryLink(email: string, redirectTo = resetPage): Promise<string> {
  const before = (await mailbox(target, email)).length;
  const { data, error } = await supabase().auth.resetPasswordForEmail(email, { redirectTo });
  expect(error).toBeNull();
  expect(data).toEqual({});
  const mail = await latestMail(target, email, before + 1);
  expect(mail.subject).toMatch(/reset/i);
  return verifyLinkOf(mail);
}

describe('password recovery', () => {
  it('mails a type=recovery link whose redirect carries the recovery session in the fragment', async () => {
    const { email } = await confirmedUser(target, 'recover');
    const link = await recoveryLink(email);
    expect(new URL(link).searchParams.get('type')).toBe('recovery');
    const { status, location } = await follow(link);
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(resetPage);
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('recovery');
    for (const key of ['access_token', 'refresh_token', 'expires_in', 'expires_at', 'token_type']) expect(fragment.get(key)).toBeTruthy();
  });

  it('supabase-js in the browser emits PASSWORD_RECOVERY, then updateUser sets the new password', async () => {
    const credentials = await confirmedUser(target, 'recover2');
    const { location } = await follow(await recoveryLink(credentials.email));
    const win = pretendBrowserAt(location.toString());

    const client = supabase(target, { detectSessionInUrl: true });
    const events: string[] = [];
    const recovered = new Promise<void>((resolve) =>
      client.auth.onAuthStateChange((event) => {
        events.push(event);
        if (event === 'PASSWORD_RECOVERY') resolve();
      }),
    );
    await recovered;
    expect(events).toContain('PASSWORD_RECOVERY');
    expect(win.location.hash).toBe(''); // the client cleared the tokens from the URL
    const { data } = await client.auth.getSession();
    expect(data.session!.user.email).toBe(credentials.email);

    const update = await client.auth.updateUser({ password: 'recovered-password' });
    expect(update.error).toBeNull();
    expect((await supabase().auth.signInWithPassword(credentials)).error).toMatchObject({ code: 'invalid_credentials' });
    expect((await supabase().auth.signInWithPassword({ email: credentials.email, password: 'recovered-password' })).error).toBeNull();
  });

  it('an expired or used link lands with an error the client raises as AuthImplicitGrantRedirectError', async () => {
    const { email } = await confirmedUser(target, 'recover3');
    const link = await recoveryLink(email);
    await follow(link);
    const { location } = await follow(link);
    pretendBrowserAt(location.toString());
    const client = supabase(target, { detectSessionInUrl: true });
    const { error } = await client.auth.initialize();
    expect(error).toBeInstanceOf(AuthImplicitGrantRedirectError);
    expect(error!.message).toBe('Email link is invalid or has expired');
    expect((await client.auth.getSession()).data.session).toBeNull();
  });

  it('answers {} for an unknown address and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const { data, error } = await supabase().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await mailbox(target, email)).toEqual([]);
  });

  it('without redirect_to the link returns to /signinup?passwordreset=true (product-rules §2)', async () => {
    const { email } = await confirmedUser(target, 'recover4');
    await supabase().auth.resetPasswordForEmail(email);
    const link = verifyLinkOf(await latestMail(target, email, 2));
    expect(new URL(link).searchParams.get('redirect_to')).toBe(resetPage);
  });

  it('verifyOtp with the mailed code and type recovery emits PASSWORD_RECOVERY', async () => {
    const { email } = await confirmedUser(target, 'recover5');
    await supabase().auth.resetPasswordForEmail(email);
    const code = (await latestMail(target, email, 2)).text.match(/\b(\d{6})\b/)![1]!;
    const client = supabase();
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const { data, error } = await client.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    await new Promise((r) => setTimeout(r, 10));
    expect(events).toContain('PASSWORD_RECOVERY');
  });
});

describe('PKCE flow', () => {
  it('sign-up confirmation returns ?code= which exchangeCodeForSession trades for a session', async () => {
    const email = uniqueEmail('pkce');
    const client = supabase(target, { flowType: 'pkce' });
    const signUp = await client.auth.signUp({ email, password: 'secret-123', options: { emailRedirectTo: `${target.url}/account` } });
    expect(signUp.error).toBeNull();
    const { location } = await follow(verifyLinkOf(await latestMail(target, email)));
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const { data, error } = await client.auth.exchangeCodeForSession(code);
    expect(error).toBeNull();
    expect(data.session!.user.email).toBe(email);
    // A code is good once.
    const again = await supabase(target, { flowType: 'pkce' }).auth.exchangeCodeForSession(code);
    expect(again.error).not.toBeNull();
  });

  it('refuses a wrong code verifier', async () => {
    const { email } = await confirmedUser(target, 'pkce2');
    const response = await fetch(`${target.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: target.authKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, code_challenge: 'x'.repeat(43), code_challenge_method: 's256' }),
    });
    expect(response.status).toBe(200);
    const { location } = await follow(verifyLinkOf(await latestMail(target, email, 2)));
    const token = await fetch(`${target.url}/auth/v1/token?grant_type=pkce`, {
      method: 'POST',
      headers: { apikey: target.authKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ auth_code: location.searchParams.get('code'), code_verifier: 'y'.repeat(43) }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ code: 'bad_code_verifier' });
  });
});

describe('magic link and e-mail change', () => {
  it('signInWithOtp mails a magic link that signs in (creating the user on first use)', async () => {
    const email = uniqueEmail('magic');
    const { error } = await supabase().auth.signInWithOtp({ email, options: { emailRedirectTo: `${target.url}/account` } });
    expect(error).toBeNull();
    const { location } = await follow(verifyLinkOf(await latestMail(target, email)));
    const fragment = fragmentOf(location);
    expect(fragment.get('type')).toBe('magiclink');
    const user = await supabase().auth.getUser(fragment.get('access_token')!);
    expect(user.data.user!.email_confirmed_at).toEqual(expect.any(String));

    const disallowed = await supabase().auth.signInWithOtp({ email: uniqueEmail('nomagic'), options: { shouldCreateUser: false } });
    expect(disallowed.error).toMatchObject({ status: 422, code: 'otp_disabled' });
  });

  it('updateUser({ email }) mails the new address; its link switches the account over', async () => {
    const credentials = await confirmedUser(target, 'mover');
    const client = supabase();
    await client.auth.signInWithPassword(credentials);
    const next = uniqueEmail('moved');
    const { data, error } = await client.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user!.email).toBe(credentials.email);
    expect(data.user!.new_email).toBe(next);
    await follow(verifyLinkOf(await latestMail(target, next)));
    expect((await supabase().auth.signInWithPassword({ email: next, password: credentials.password })).error).toBeNull();

    const taken = await client.auth.updateUser({ email: DEMO.email });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
  });
});
