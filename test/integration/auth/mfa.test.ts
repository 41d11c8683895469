import { AuthApiError } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { confirmedUser, globalServer, signedIn } from '../helpers';

// MFA with TOTP through supabase-js: enroll (QR code as SVG), challenge, verify to aal2,
// listFactors, getAuthenticatorAssuranceLevel, unenroll (GoTrue's HTTP contract).

const target = globalServer();
const codeFor = (secret: string, timestamp = Date.now()) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp });
/** The code of the next 30-second step, which the server accepts (one step of clock drift). */
const nextCodeFor = (secret: string) => codeFor(secret, Date.now() + 30_000);
const wrongCode = (secret: string) => String((Number(codeFor(secret)) + 500_000) % 1_000_000).padStart(6, '0');

describe('TOTP factors', () => {
  it('enroll, challenge, verify to aal2, use from another session, unenroll', async () => {
    const credentials = await confirmedUser(target, 'mfa');
    const { client, user } = await signedIn(target, credentials);

    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone', issuer: 'Limelight' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data!;
    expect(factor).toMatchObject({ type: 'totp', friendly_name: 'Phone' });
    expect(factor.totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(factor.totp.uri).toMatch(new RegExp(`^otpauth://totp/Limelight:${encodeURIComponent(credentials.email)}\\?`));
    expect(new URL(factor.totp.uri).searchParams.get('secret')).toBe(factor.totp.secret);
    expect(new URL(factor.totp.uri).searchParams.get('algorithm')).toBe('SHA1');

    const unverified = await client.auth.mfa.listFactors();
    expect(unverified.data!.all).toHaveLength(1);
    expect(unverified.data!.all[0]).toMatchObject({ id: factor.id, status: 'unverified', factor_type: 'totp' });
    expect(unverified.data!.totp).toHaveLength(0);

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
    expect(challenge.data!.expires_at).toBeGreaterThan(Date.now() / 1000);

    const wrong = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: wrongCode(factor.totp.secret),
    });
    expect(wrong.error).toBeInstanceOf(AuthApiError);
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });

    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    // Kept for the replays below: computed again later, it would be the next 30-second window's
    // code once the clock has crossed a window, a code never used (seen on a loaded machine).
    const usedCode = codeFor(factor.totp.secret);
    const verified = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: usedCode,
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data!.access_token);
    expect(claims.aal).toBe('aal2');
    expect((claims.amr as Array<{ method: string }>).map((a) => a.method)).toEqual(['totp', 'password']);
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');

    // A challenge is good once.
    const replay = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data!.id,
      code: usedCode,
    });
    expect(replay.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });

    const factors = await client.auth.mfa.listFactors();
    expect(factors.data!.totp).toHaveLength(1);
    expect(factors.data!.totp[0]).toMatchObject({ id: factor.id, status: 'verified', friendly_name: 'Phone' });
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });

    // A fresh password sign-in is aal1 and must step up.
    const other = await signedIn(target, credentials);
    expect((await other.client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const denied = await other.client.auth.mfa.unenroll({ factorId: factor.id });
    expect(denied.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const noEnroll = await other.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Laptop' });
    expect(noEnroll.error).toMatchObject({ status: 403, code: 'insufficient_aal' });
    const noPassword = await other.client.auth.updateUser({ password: 'new-password-123' });
    expect(noPassword.error).toMatchObject({ status: 401, code: 'insufficient_aal' });

    // A code works once: the one that raised the first session is refused here (issue 11).
    const replayed = await other.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: usedCode });
    expect(replayed.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' });
    const stepUp = await other.client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: nextCodeFor(factor.totp.secret) });
    expect(stepUp.error).toBeNull();
    expect((await other.client.auth.mfa.getAuthenticatorAssuranceLevel()).data!.currentLevel).toBe('aal2');

    const conflict = await other.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(conflict.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });

    const removed = await other.client.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    expect((await other.client.auth.mfa.listFactors()).data!.all).toEqual([]);
    expect(user.id).toBe(decodeJwt(verified.data!.access_token).sub);
  });

  it('rejects phone factors, unknown factors and other users’ factors', async () => {
    const { client } = await signedIn(target, await confirmedUser(target, 'mfa2'));
    const phone = await client.auth.mfa.enroll({ factorType: 'phone', phone: '+4930123456' });
    expect(phone.error).toMatchObject({ status: 422, code: 'mfa_phone_enroll_not_enabled' });

    const missing = await client.auth.mfa.challenge({ factorId: '00000000-0000-4000-8000-000000000000' });
    expect(missing.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });

    const { client: stranger } = await signedIn(target, await confirmedUser(target, 'mfa3'));
    const theirs = await stranger.auth.mfa.enroll({ factorType: 'totp' });
    const foreign = await client.auth.mfa.challenge({ factorId: theirs.data!.id });
    expect(foreign.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });
});
