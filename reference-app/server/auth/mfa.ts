import { Hono, type Context } from 'hono';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { AuthDeps } from './deps';
import { AuthHttpError, notFound, unprocessable, validationFailed } from './errors';
import {
  claimChallenge,
  claimTotpStep,
  countChallengeAttempt,
  deleteChallenge,
  deleteFactor,
  deleteSessionsBelowAal2,
  deleteUnverifiedFactors,
  insertChallenge,
  insertFactor,
  lowerSessionsOfFactor,
  revokeRefreshTokensOfSession,
  selectActiveRefreshToken,
  selectChallengeOfFactor,
  selectFactorOfUser,
  selectFactorsOf,
  updateFactor,
  updateSession,
} from './queries';
import { clientInfo, rateLimit, readBody, requireCaller, stringField, type Caller } from './request';
import { amrEntry, issueRefreshToken, sessionResponse } from './sessions';
import { findUserById, type FactorRow } from './userRecords';
import { isUuid } from '../db/uuid';

// MFA with TOTP (GoTrue's HTTP contract): enroll returns the secret, its otpauth:// URI and a QR code as
// raw SVG; challenge + verify raise the session to aal2; unenroll removes a factor.

const MAX_FACTORS = 10;
const CHALLENGE_TTL_S = 300;
/** Codes tried against one challenge; then the client must create a new challenge. */
export const MAX_CHALLENGE_ATTEMPTS = 5;
const TOTP_PERIOD_S = 30;
/** Unverified factors older than this are abandoned enrolments and get cleaned up. */
const UNVERIFIED_FACTOR_TTL_MS = 24 * 3600 * 1000;

function totpFor(secret: string, label: string, issuer: string) {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

async function callerFactor(c: Context, deps: AuthDeps): Promise<{ caller: Caller; factor: FactorRow }> {
  const caller = await requireCaller(c, deps);
  const id = c.req.param('id') ?? '';
  const factor = isUuid(id) ? await selectFactorOfUser(deps.db, id, caller.user.id) : undefined;
  if (!factor) throw notFound('mfa_factor_not_found', 'Factor not found');
  return { caller, factor };
}

export function mfaRoutes(deps: AuthDeps) {
  const app = new Hono();

  app.post('/factors', async (c) => {
    const caller = await requireCaller(c, deps);
    const body = await readBody(c);
    const type = stringField(body, 'factor_type');
    if (type === 'phone') throw unprocessable('mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
    if (type === 'webauthn') throw unprocessable('mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn');
    if (type !== 'totp') throw validationFailed('factor_type needs to be totp, phone, or webauthn');
    const friendlyName = stringField(body, 'friendly_name')?.trim() ?? '';
    if (friendlyName.length > 255) throw validationFailed('friendly_name must be at most 255 characters');
    const issuer = stringField(body, 'issuer')?.trim() || new URL(deps.config.publicUrl).host;

    await deleteUnverifiedFactors(deps.db, caller.user.id, { before: new Date(Date.now() - UNVERIFIED_FACTOR_TTL_MS) });
    const factors = await selectFactorsOf(deps.db, caller.user.id);
    if (friendlyName && factors.some((f) => f.friendly_name === friendlyName)) {
      throw unprocessable(
        'mfa_factor_name_conflict',
        `A factor with the friendly name ${JSON.stringify(friendlyName)} for this user already exists`,
      );
    }
    if (factors.length >= MAX_FACTORS) {
      throw unprocessable('too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
    }
    if (factors.some((f) => f.status === 'verified') && caller.session.aal !== 'aal2') {
      throw new AuthHttpError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }

    const secret = new OTPAuth.Secret({ size: 20 }).base32;
    const uri = totpFor(secret, caller.user.email, issuer).toString();
    const qrCode = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    const factor = await insertFactor(deps.db, {
      user_id: caller.user.id,
      friendly_name: friendlyName || null,
      factor_type: 'totp',
      status: 'unverified',
      secret_enc: deps.box.seal(JSON.stringify({ secret, issuer })),
    });
    return c.json({ id: factor.id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrCode, secret, uri } });
  });

  app.post('/factors/:id/challenge', async (c) => {
    await rateLimit(c, deps, 'mfa');
    const { factor } = await callerFactor(c, deps);
    const challenge = await insertChallenge(deps.db, factor.id, clientInfo(c, deps).ip);
    return c.json({
      id: challenge.id,
      type: factor.factor_type,
      expires_at: Math.floor(challenge.created_at.getTime() / 1000) + CHALLENGE_TTL_S,
    });
  });

  app.post('/factors/:id/verify', async (c) => {
    await rateLimit(c, deps, 'mfa');
    const { caller, factor } = await callerFactor(c, deps);
    const body = await readBody(c);
    const code = stringField(body, 'code')?.trim();
    const challengeId = stringField(body, 'challenge_id') ?? '';
    if (!code) throw validationFailed('Code needs to be non-empty');
    const challenge = isUuid(challengeId) ? await selectChallengeOfFactor(deps.db, challengeId, factor.id) : undefined;
    if (!challenge) throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    if (challenge.verified_at || challenge.ip !== clientInfo(c, deps).ip) {
      throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    if (challenge.created_at.getTime() + CHALLENGE_TTL_S * 1000 < Date.now()) {
      await deleteChallenge(deps.db, challenge.id);
      throw unprocessable(
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    // Each try is counted before the code is checked, in one statement, so parallel guesses
    // cannot overtake the limit.
    if (!(await countChallengeAttempt(deps.db, challenge.id, MAX_CHALLENGE_ATTEMPTS))) {
      throw unprocessable(
        'mfa_challenge_expired',
        `Too many wrong codes for MFA challenge ${challenge.id}: create a new challenge and try again.`,
      );
    }
    const { secret, issuer } = JSON.parse(deps.box.open(factor.secret_enc)) as { secret: string; issuer: string };
    const checkedAt = Date.now();
    const delta = totpFor(secret, caller.user.email, issuer).validate({ token: code, window: 1, timestamp: checkedAt });
    if (delta === null) throw unprocessable('mfa_verification_failed', 'Invalid TOTP code entered');
    const step = Math.floor(checkedAt / 1000 / TOTP_PERIOD_S) + delta;

    const session = await deps.db.transaction().execute(async (trx) => {
      const now = new Date();
      // A code works once: someone who saw it (over a shoulder, in a proxy log) cannot replay it
      // within its 30-second window or the next.
      if (!(await claimTotpStep(trx, factor.id, step))) {
        throw unprocessable('mfa_verification_failed', 'This code was already used: wait for the next code of your authenticator app');
      }
      if (!(await claimChallenge(trx, challenge.id, now)))
        throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      await updateFactor(trx, factor.id, { status: 'verified', updated_at: now });
      const amr = [amrEntry('totp'), ...caller.session.amr.filter((a) => a.method !== 'totp')];
      const upgraded = await updateSession(trx, caller.session.id, {
        aal: 'aal2',
        amr: JSON.stringify(amr),
        factor_id: factor.id,
        updated_at: now,
      });
      // As GoTrue: the user's other sessions below aal2 end, abandoned enrolments go.
      await deleteSessionsBelowAal2(trx, caller.user.id);
      await deleteUnverifiedFactors(trx, caller.user.id, { type: factor.factor_type });
      // The new token is the child of the active one, so a client retrying with the old token
      // is handed the new one rather than treated as a thief.
      const active = await selectActiveRefreshToken(trx, upgraded.id);
      await revokeRefreshTokensOfSession(trx, upgraded.id);
      const refreshToken = await issueRefreshToken(trx, deps, upgraded, active?.id ?? null);
      const user = (await findUserById(trx, caller.user.id))!;
      return sessionResponse(trx, deps, user, upgraded, refreshToken);
    });
    return c.json(session);
  });

  app.delete('/factors/:id', async (c) => {
    const { caller, factor } = await callerFactor(c, deps);
    if (factor.status === 'verified' && caller.session.aal !== 'aal2') {
      throw unprocessable('insufficient_aal', 'AAL2 required to unenroll verified factor');
    }
    await deps.db.transaction().execute(async (trx) => {
      await deleteFactor(trx, factor.id);
      await lowerSessionsOfFactor(trx, factor.id);
    });
    return c.json({ id: factor.id });
  });

  return app;
}
