import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CODE_ATTEMPTS, MAX_CHALLENGE_ATTEMPTS } from '../../../reference-app/server/auth';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { confirmedUser, latestMail, signedIn, supabase, uniqueEmail, type Mail } from '../helpers';

// One-time codes (issue 11, item 5): a mailed 6-digit code is void after 5 wrong tries, magic
// links and recovery links live 1 hour, a TOTP code works once and a challenge allows 5 tries.

const codeOf = (mail: Mail) => {
  const match = mail.text.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`no code in ${mail.subject}`);
  return match[1]!;
};
/** A 6-digit code that is not `code`. */
const wrong = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

let server: PlatformTestServer;
beforeAll(async () => {
  // Rate limits off: these tests count the tries a code allows, not requests per address.
  server = await startPlatformServer({ env: { EMAIL_MIN_INTERVAL: '0', RATE_LIMIT_VERIFY: '0', RATE_LIMIT_MFA: '0' } });
});
afterAll(() => server?.close());

describe('e-mail codes', () => {
  it(`are void after ${MAX_CODE_ATTEMPTS} wrong tries, the right code included`, async () => {
    expect(MAX_CODE_ATTEMPTS).toBe(5);
    const email = uniqueEmail('guess');
    expect((await supabase(server).auth.signInWithOtp({ email })).error).toBeNull();
    const code = codeOf(await latestMail(server, email));
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
      const { error } = await supabase(server).auth.verifyOtp({ email, token: wrong(code, i), type: 'email' });
      expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const { data, error } = await supabase(server).auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(data.session).toBeNull();
    // A new mail brings a new code with a fresh count.
    expect((await supabase(server).auth.signInWithOtp({ email })).error).toBeNull();
    const fresh = codeOf(await latestMail(server, email, 2));
    expect((await supabase(server).auth.verifyOtp({ email, token: fresh, type: 'email' })).error).toBeNull();
  });

  it('still work after fewer wrong tries', async () => {
    const email = uniqueEmail('typo');
    await supabase(server).auth.signInWithOtp({ email });
    const code = codeOf(await latestMail(server, email));
    for (let i = 0; i < MAX_CODE_ATTEMPTS - 1; i++) await supabase(server).auth.verifyOtp({ email, token: wrong(code, i), type: 'email' });
    const { data, error } = await supabase(server).auth.verifyOtp({ email, token: code, type: 'email' });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();
  });

  it('count parallel guesses one by one', async () => {
    const email = uniqueEmail('parallel');
    await supabase(server).auth.signInWithOtp({ email });
    const code = codeOf(await latestMail(server, email));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => supabase(server).auth.verifyOtp({ email, token: wrong(code, i), type: 'email' })),
    );
    const { db } = server.platform.database;
    const row = await db
      .selectFrom('one_time_tokens')
      .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
      .select('one_time_tokens.failed_attempts')
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(MAX_CODE_ATTEMPTS);
  });
});

describe('link lifetimes', () => {
  const lifetimeOf = async (email: string, type: string) => {
    const row = await server.platform.database.db
      .selectFrom('one_time_tokens')
      .innerJoin('users', 'users.id', 'one_time_tokens.user_id')
      .select(['one_time_tokens.expires_at', 'one_time_tokens.created_at'])
      .where('users.email', '=', email)
      .where('token_type', '=', type)
      .executeTakeFirstOrThrow();
    return (row.expires_at.getTime() - row.created_at.getTime()) / 1000;
  };

  it('are 1 hour for magic links and recovery links', async () => {
    const email = uniqueEmail('ttl');
    await supabase(server).auth.signInWithOtp({ email });
    expect(await lifetimeOf(email, 'magiclink')).toBeCloseTo(3600, -1);
    await supabase(server).auth.resetPasswordForEmail(email);
    expect(await lifetimeOf(email, 'recovery')).toBeCloseTo(3600, -1);
  });
});

describe('TOTP', () => {
  const totp = (secret: string, timestamp = Date.now()) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp });

  async function enrolledUser() {
    const credentials = await confirmedUser(server, 'totp');
    const { client } = await signedIn(server, credentials);
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp' });
    return { client, credentials, factorId: data!.id, secret: data!.totp.secret };
  }

  it('refuses a code already used in its window', async () => {
    const { client, credentials, factorId, secret } = await enrolledUser();
    const code = totp(secret);
    expect((await client.auth.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();
    // Someone who saw the code signs in with the stolen password and replays it.
    const thief = await signedIn(server, credentials);
    const replay = await thief.client.auth.mfa.challengeAndVerify({ factorId, code });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    expect((await thief.client.auth.mfa.getAuthenticatorAssuranceLevel()).data!.currentLevel).toBe('aal1');
    // The next step's code works.
    expect((await thief.client.auth.mfa.challengeAndVerify({ factorId, code: totp(secret, Date.now() + 30_000) })).error).toBeNull();
  });

  it(`allows ${MAX_CHALLENGE_ATTEMPTS} tries per challenge`, async () => {
    expect(MAX_CHALLENGE_ATTEMPTS).toBe(5);
    const { client, factorId, secret } = await enrolledUser();
    const { data: challenge } = await client.auth.mfa.challenge({ factorId });
    for (let i = 0; i < MAX_CHALLENGE_ATTEMPTS; i++) {
      const { error } = await client.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: wrong(totp(secret), i * 7) });
      expect(error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    }
    const exhausted = await client.auth.mfa.verify({ factorId, challengeId: challenge!.id, code: totp(secret) });
    expect(exhausted.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    expect(exhausted.error!.message).toMatch(/create a new challenge/);
    expect((await client.auth.mfa.challengeAndVerify({ factorId, code: totp(secret) })).error).toBeNull();
  });
});
