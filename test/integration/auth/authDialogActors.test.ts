import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyActorLogic } from 'xstate';
import { createAuthClient, LimeAuthError } from '../../../src/auth';
import { createAuthDialogActors } from '../../../src/auth/authDialogActors';
import { defaultRedirectUrls } from '../../../src/auth/types';
import { type SignUpResult } from '../../../src/auth/authDialogMachine';
import * as OTPAuth from 'otpauth';
import { emailCodeFailureAlert, mfaFailureAlert, signInFailureAlert } from '../../../src/auth/alerts';
import { authKey, DEMO, followLink, mailbox, memoryStorage, platformUrl, recordingFetch, uniqueEmail, waitForLink } from './platform';

/** A seeded, confirmed account (reference-app/server/seed/users.ts). */
const PUBLISHER_EMAIL = 'publisher@limelight.dev';

// The auth dialog's real network actors (createAuthDialogActors) against the real platform
// server: the machine's error mapping relies on the codes they surface.

function setup() {
  const recorder = recordingFetch();
  const client = createAuthClient({ authUrl: platformUrl(), authKey: authKey(), storage: memoryStorage(), fetch: recorder.fetch });
  // The site is served by the platform server, so its origin is an allowed redirect target.
  const actors = createAuthDialogActors(client, { redirectUrls: defaultRedirectUrls(platformUrl()) });
  return { client, actors, seen: recorder.seen };
}

function run<T>(logic: AnyActorLogic, input?: unknown): Promise<T> {
  const actor = createActor(logic, { input });
  actor.start();
  return toPromise(actor) as Promise<T>;
}

async function rejection(promise: Promise<unknown>): Promise<LimeAuthError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LimeAuthError);
    return error as LimeAuthError;
  }
  throw new Error('expected a rejection');
}

describe('auth dialog actors on the real server (product-rules §7 "Auth provider calls")', () => {
  it('signIn resolves with the session; a wrong password rejects with code invalid_credentials', async () => {
    const { actors } = setup();
    const session = await run<{ access_token: string; user: { email: string } }>(actors.signIn, DEMO);
    expect(session.access_token).toBeTruthy();
    expect(session.user.email).toBe(DEMO.email);
    const error = await rejection(run(actors.signIn, { email: DEMO.email, password: 'wrong-password' }));
    expect(error).toMatchObject({ kind: 'api', code: 'invalid_credentials', status: 400 });
    expect(signInFailureAlert(error, DEMO.email).key).toBe('invalidCredentials');
  });

  it('signUp asks for confirmation with emailconfirmed=true; the link confirms and signs in', async () => {
    const { actors, seen } = setup();
    const email = uniqueEmail('signup');
    const result = await run<SignUpResult>(actors.signUp, { email, password: 'secret-pw-1' });
    expect(result.session).toBeNull();
    expect(result.user?.email).toBe(email);
    expect(result.user?.email_confirmed_at ?? null).toBeNull();
    expect(result.user?.identities?.length).toBeGreaterThan(0);
    const signup = seen.find((s) => s.url.includes('/signup'))!;
    expect(new URL(signup.url).searchParams.get('redirect_to')).toBe(`${platformUrl()}/signinup?emailconfirmed=true`);

    const link = await waitForLink(email, /type=signup/);
    const landing = await followLink(link);
    expect(`${landing.origin}${landing.pathname}${landing.search}`).toBe(`${platformUrl()}/signinup?emailconfirmed=true`);
    expect(new URLSearchParams(landing.hash.slice(1)).get('access_token')).toBeTruthy();
  });

  it("verifyEmailCode: the sign-up mail's 6-digit code confirms the account and signs in; a wrong one is otp_expired", async () => {
    const { actors } = setup();
    const email = uniqueEmail('code');
    await run<SignUpResult>(actors.signUp, { email, password: 'secret-pw-1' });
    await waitForLink(email, /type=signup/);
    const text = (await mailbox(email))[0].text;
    const code = /Or enter this code: (\d{6})/.exec(text)![1];
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const error = await rejection(run(actors.verifyEmailCode, { email, code: wrong }));
    expect(error).toMatchObject({ kind: 'api', code: 'otp_expired' });
    expect(emailCodeFailureAlert(error).key).toBe('emailCodeInvalid');
    const session = await run<{ access_token: string; user: { email: string; email_confirmed_at?: string } }>(actors.verifyEmailCode, {
      email,
      code,
    });
    expect(session.access_token).toBeTruthy();
    expect(session.user.email).toBe(email);
    expect(session.user.email_confirmed_at).toBeTruthy();
  });

  it('signUp for a confirmed address answers the obfuscated user without identities (UserExists)', async () => {
    const { actors } = setup();
    // The publisher's address: no other test mails it, so the per-address mail interval (which
    // counts before the account lookup, so known and unknown addresses answer alike) is free.
    const result = await run<SignUpResult>(actors.signUp, { email: PUBLISHER_EMAIL, password: 'whatever-pw' }).catch(
      (error: LimeAuthError) => error,
    );
    if (result instanceof LimeAuthError) {
      // Autoconfirm servers answer 422 instead: the other UserExists case.
      expect(result.code).toBe('user_already_exists');
    } else {
      expect(result.session).toBeNull();
      expect(result.user?.identities).toEqual([]);
    }
  });

  it('a weak password is refused with its code and message (createAccountFailed)', async () => {
    const { actors } = setup();
    const error = await rejection(run(actors.signUp, { email: uniqueEmail('weak'), password: '1' }));
    expect(error.kind).toBe('api');
    expect(error.code).toBeTruthy();
    expect(error.message).toBeTruthy();
  });

  it('resendVerification: refused within the mail interval of the sign-up mail, accepted for an address not mailed lately', async () => {
    const { actors } = setup();
    const email = uniqueEmail('resend');
    await run(actors.signUp, { email, password: 'secret-pw-1' });
    await waitForLink(email, /type=signup/);
    // One mail of a kind per address per interval (the server's mail rate limit).
    const error = await rejection(run(actors.resendVerification, { email }));
    expect(error).toMatchObject({ kind: 'api', code: 'over_email_send_rate_limit', status: 429 });
    await expect(run(actors.resendVerification, { email: uniqueEmail('resend-fresh') })).resolves.toBeUndefined();
  });

  it('requestRecovery mails a link that returns to /signinup?passwordreset=true with a recovery session', async () => {
    const { actors } = setup();
    await run(actors.requestRecovery, { email: DEMO.email });
    const link = await waitForLink(DEMO.email, /type=recovery/);
    const landing = await followLink(link);
    expect(`${landing.origin}${landing.pathname}${landing.search}`).toBe(`${platformUrl()}/signinup?passwordreset=true`);
    const fragment = new URLSearchParams(landing.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('access_token')).toBeTruthy();
  });

  it('getRecoverySession gives null without a session, the session with one', async () => {
    const { actors, client } = setup();
    expect(await run(actors.getRecoverySession)).toBeNull();
    await client.signInWithPassword(DEMO);
    expect(await run<{ access_token: string } | null>(actors.getRecoverySession)).toMatchObject({ access_token: expect.any(String) });
  });

  it('updatePassword without a session is the session-missing failure; signOut then works', async () => {
    const { actors } = setup();
    const error = await rejection(run(actors.updatePassword, { password: 'another-pw-1' }));
    expect(error.kind).toBe('session-missing');
    await expect(run(actors.signOut)).resolves.toBeUndefined();
  });

  it('updatePassword sets the new password; sign-in works with it', async () => {
    const { actors, client } = setup();
    const email = uniqueEmail('reset');
    await run(actors.signUp, { email, password: 'first-pw-1' });
    await followLink(await waitForLink(email, /type=signup/));
    await client.signInWithPassword({ email, password: 'first-pw-1' });
    await run(actors.updatePassword, { password: 'second-pw-2' });
    await run(actors.signOut);
    const session = await run<{ user: { email: string } }>(actors.signIn, { email, password: 'second-pw-2' });
    expect(session.user.email).toBe(email);
  });

  it('checkAssurance finds no second factor for a user without one', async () => {
    const { actors } = setup();
    await run(actors.signIn, DEMO);
    await expect(run(actors.checkAssurance)).resolves.toEqual({ factorId: null });
  });

  it('a user with a verified TOTP factor: checkAssurance names it; verifyMfa refuses a wrong code, then reaches aal2', async () => {
    // Enrol a factor the way the MFA panel does: sign in, enrol, confirm with a code, sign out.
    const enrolment = setup();
    const email = uniqueEmail('mfa-dialog');
    const password = 'mfa-dialog-pw-1';
    await run(enrolment.actors.signUp, { email, password });
    await followLink(await waitForLink(email, /type=signup/));
    await enrolment.client.signInWithPassword({ email, password });
    const enrolled = await enrolment.client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    const { id: factorId, totp } = enrolled.data!;
    // A code works once: each use takes the next 30-second window's code (accepted one step early).
    const codeFor = (step = 0) =>
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(totp.secret) }).generate({ timestamp: Date.now() + step * 30_000 });
    const confirmed = await enrolment.client.mfa.challengeAndVerify({ factorId, code: codeFor() });
    expect(confirmed.error).toBeNull();
    await run(enrolment.actors.signOut);

    // The dialog's sign-in: the password gives aal1 and the check asks for this factor.
    const { actors, client } = setup();
    await run(actors.signIn, { email, password });
    await expect(run(actors.checkAssurance)).resolves.toEqual({ factorId });
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const wrongCode = String((Number(codeFor()) + 500_000) % 1_000_000).padStart(6, '0');
    const error = await rejection(run(actors.verifyMfa, { factorId, code: wrongCode }));
    expect(error.code).toBe('mfa_verification_failed');
    expect(mfaFailureAlert(error).key).toBe('mfaInvalidCode');
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');

    const session = await run<{ access_token: string; user: { email: string } }>(actors.verifyMfa, { factorId, code: codeFor(1) });
    expect(session.user.email).toBe(email);
    expect(JSON.parse(atob(session.access_token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).aal).toBe('aal2');
    // Once aal2, nothing more is owed.
    await expect(run(actors.checkAssurance)).resolves.toEqual({ factorId: null });
  });

  it('socialSignIn goes to the provider through the auth server; the cloud provider asks for its scopes', async () => {
    const { actors } = setup();
    // Outside a browser auth-js does not navigate; the actor returns the URL it would open.
    const azure = new URL((await run<string>(actors.socialSignIn, { provider: 'azure' }))!);
    expect(`${azure.origin}${azure.pathname}`).toBe(`${platformUrl()}/auth/v1/authorize`);
    expect(azure.searchParams.get('provider')).toBe('azure');
    expect(azure.searchParams.get('scopes')).toBe('openid profile email offline_access');
    expect(azure.searchParams.get('redirect_to')).toBe(`${platformUrl()}/signinup?page_state=1`);
    for (const provider of ['google', 'github', 'facebook'] as const) {
      const url = new URL((await run<string>(actors.socialSignIn, { provider }))!);
      expect(url.searchParams.get('provider')).toBe(provider);
      expect(url.searchParams.get('scopes')).toBeNull();
    }
  });
});
