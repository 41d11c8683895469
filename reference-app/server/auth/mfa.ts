import { Hono, type Context } from 'hono';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { AuthDeps } from './deps';
import { AuthHttpError, notFound, unprocessable, validationFailed } from './errors';
import { clientInfo, rateLimit, readBody, requireCaller, stringField, type Caller } from './request';
import { amrEntry, issueRefreshToken, sessionResponse } from './sessions';
import { findUserById, type FactorRow } from './userRecords';

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
  const factor = /^[0-9a-f-]{36}$/i.test(id)
    ? await deps.db.selectFrom('mfa_factors').selectAll().where('id', '=', id).where('user_id', '=', caller.user.id).executeTakeFirst()
    : undefined;
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

    await deps.db
      .deleteFrom('mfa_factors')
      .where('user_id', '=', caller.user.id)
      .where('status', '=', 'unverified')
      .where('created_at', '<', new Date(Date.now() - UNVERIFIED_FACTOR_TTL_MS))
      .execute();
    const factors = await deps.db.selectFrom('mfa_factors').selectAll().where('user_id', '=', caller.user.id).execute();
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
    const factor = await deps.db
      .insertInto('mfa_factors')
      .values({
        user_id: caller.user.id,
        friendly_name: friendlyName || null,
        factor_type: 'totp',
        status: 'unverified',
        secret_enc: deps.box.seal(JSON.stringify({ secret, issuer })),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return c.json({ id: factor.id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrCode, secret, uri } });
  });

  app.post('/factors/:id/challenge', async (c) => {
    await rateLimit(c, deps, 'mfa');
    const { factor } = await callerFactor(c, deps);
    const challenge = await deps.db
      .insertInto('mfa_challenges')
      .values({ factor_id: factor.id, ip: clientInfo(c, deps).ip })
      .returningAll()
      .executeTakeFirstOrThrow();
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
    const challenge = /^[0-9a-f-]{36}$/i.test(challengeId)
      ? await deps.db
          .selectFrom('mfa_challenges')
          .selectAll()
          .where('id', '=', challengeId)
          .where('factor_id', '=', factor.id)
          .executeTakeFirst()
      : undefined;
    if (!challenge) throw unprocessable('mfa_factor_not_found', 'MFA factor with the provided challenge ID not found');
    if (challenge.verified_at || challenge.ip !== clientInfo(c, deps).ip) {
      throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
    }
    if (challenge.created_at.getTime() + CHALLENGE_TTL_S * 1000 < Date.now()) {
      await deps.db.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
      throw unprocessable(
        'mfa_challenge_expired',
        `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    // Each try is counted before the code is checked, in one statement, so parallel guesses
    // cannot overtake the limit.
    const counted = await deps.db
      .updateTable('mfa_challenges')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('id', '=', challenge.id)
      .where('failed_attempts', '<', MAX_CHALLENGE_ATTEMPTS)
      .executeTakeFirst();
    if (!counted.numUpdatedRows) {
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
      const fresh = await trx
        .updateTable('mfa_factors')
        .set({ last_totp_step: step })
        .where('id', '=', factor.id)
        .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', step)]))
        .executeTakeFirst();
      if (!fresh.numUpdatedRows) {
        throw unprocessable('mfa_verification_failed', 'This code was already used: wait for the next code of your authenticator app');
      }
      const claimed = await trx
        .updateTable('mfa_challenges')
        .set({ verified_at: now })
        .where('id', '=', challenge.id)
        .where('verified_at', 'is', null)
        .executeTakeFirst();
      if (!claimed.numUpdatedRows) throw unprocessable('mfa_ip_address_mismatch', 'Challenge and verify IP addresses mismatch.');
      await trx.updateTable('mfa_factors').set({ status: 'verified', updated_at: now }).where('id', '=', factor.id).execute();
      const amr = [amrEntry('totp'), ...caller.session.amr.filter((a) => a.method !== 'totp')];
      const upgraded = await trx
        .updateTable('sessions')
        .set({ aal: 'aal2', amr: JSON.stringify(amr), factor_id: factor.id, updated_at: now })
        .where('id', '=', caller.session.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // As GoTrue: the user's other sessions below aal2 end, abandoned enrolments go.
      await trx.deleteFrom('sessions').where('user_id', '=', caller.user.id).where('aal', '!=', 'aal2').execute();
      await trx
        .deleteFrom('mfa_factors')
        .where('user_id', '=', caller.user.id)
        .where('status', '=', 'unverified')
        .where('factor_type', '=', factor.factor_type)
        .execute();
      // The new token is the child of the active one, so a client retrying with the old token
      // is handed the new one rather than treated as a thief.
      const active = await trx
        .selectFrom('refresh_tokens')
        .select('id')
        .where('session_id', '=', upgraded.id)
        .where('revoked', '=', false)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      await trx.updateTable('refresh_tokens').set({ revoked: true, updated_at: now }).where('session_id', '=', upgraded.id).execute();
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
      await trx.deleteFrom('mfa_factors').where('id', '=', factor.id).execute();
      await trx
        .updateTable('sessions')
        .set({ aal: 'aal1', factor_id: null, updated_at: new Date() })
        .where('factor_id', '=', factor.id)
        .execute();
    });
    return c.json({ id: factor.id });
  });

  return app;
}
