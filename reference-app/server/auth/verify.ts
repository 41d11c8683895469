import { Hono, type Context } from 'hono';
import type { Db } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import type { AuthDeps } from './deps';
import { consumeEmailToken, prepareEmailToken, VERIFY_TYPES, type EmailTokenRow } from './emailTokens';
import { AuthHttpError, forbidden, unprocessable, validationFailed } from './errors';
import { createFlowState, issueAuthCode, readPkce } from './pkce';
import { selectUserByPendingEmail, updateUserRow } from './queries';
import { DEFAULT_REDIRECT_PATHS, safeRedirect, withFragment, withQuery } from './redirects';
import { clientInfo, limitMailTo, rateLimit, readBody, stringField } from './request';
import { signIn, type SessionResponse } from './sessions';
import { readEmail } from './signup';
import { confirmEmail, findUserByEmail, findUserById, markEmailIdentityVerified, normalizeEmail, type UserRow } from './userRecords';

// POST /recover, and /verify: the link in every auth email (GET, answers with a 303 to the app)
// and its API form (POST with token_hash, or email + 6-digit code).

const AMR_METHOD: Record<string, string> = {
  signup: 'otp',
  invite: 'invite',
  email: 'otp',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
};

const defaultPath = (type: string) =>
  type === 'recovery'
    ? DEFAULT_REDIRECT_PATHS.recovery
    : type === 'email_change'
      ? DEFAULT_REDIRECT_PATHS.email_change
      : type === 'magiclink'
        ? DEFAULT_REDIRECT_PATHS.magiclink
        : DEFAULT_REDIRECT_PATHS.signup;

const LINK_INVALID = {
  error: 'access_denied',
  error_code: 'otp_expired',
  error_description: 'Email link is invalid or has expired',
};

/** Applies what the token proves (a confirmed address, a new address) and returns the user. */
async function applyToken(trx: Db, row: EmailTokenRow): Promise<UserRow | undefined> {
  const user = await findUserById(trx, row.user_id);
  if (!user) return undefined;
  if (row.token_type !== 'email_change') {
    if (user.email_confirmed_at) return user;
    return confirmEmail(trx, user, row.token_type === 'signup' ? 'signup' : 'other');
  }
  const email = normalizeEmail(row.relates_to);
  const now = new Date();
  const updated = await updateUserRow(trx, user.id, {
    email,
    email_change: null,
    email_change_sent_at: null,
    email_confirmed_at: user.email_confirmed_at ?? now,
    raw_user_meta_data: JSON.stringify({ ...user.raw_user_meta_data, email, email_verified: true }),
    updated_at: now,
  });
  await markEmailIdentityVerified(trx, user.id, now, email);
  return updated;
}

type VerifyOutcome = { kind: 'session'; session: SessionResponse; type: string } | { kind: 'code'; code: string } | { kind: 'invalid' };

async function verifyToken(
  c: Context,
  deps: AuthDeps,
  type: string,
  lookup: Parameters<typeof consumeEmailToken>[2],
): Promise<VerifyOutcome> {
  try {
    return await deps.db.transaction().execute(async (trx): Promise<VerifyOutcome> => {
      const row = await consumeEmailToken(trx, type, lookup);
      if (!row) return { kind: 'invalid' };
      const user = await applyToken(trx, row);
      if (!user) return { kind: 'invalid' };
      if (row.flow_state_id) return { kind: 'code', code: await issueAuthCode(trx, row.flow_state_id, user.id) };
      const session = await signIn(trx, deps, user, AMR_METHOD[row.token_type] ?? 'otp', clientInfo(c, deps));
      // An invitation is a signup token; the app is told it was an invite, as GoTrue does.
      return { kind: 'session', session, type: type === 'invite' ? 'invite' : row.token_type };
    });
  } catch (error) {
    // The new address of an email change was taken meanwhile.
    if (isUniqueViolation(error)) throw unprocessable('email_exists', 'A user with this email address has already been registered');
    throw error;
  }
}

export function verifyRoutes(deps: AuthDeps) {
  const app = new Hono();
  const { config } = deps;

  app.post('/recover', async (c) => {
    await rateLimit(c, deps, 'emailSent');
    const body = await readBody(c);
    const email = readEmail(body, 'Password recovery requires an email');
    await limitMailTo(c, deps, 'recovery', email);
    const pkce = readPkce(body);
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS.recovery);
    const mail = await deps.db.transaction().execute(async (trx) => {
      const user = await findUserByEmail(trx, email);
      if (!user) return undefined; // same answer for unknown addresses
      const flowStateId = pkce ? await createFlowState(trx, pkce, { userId: user.id, authMethod: 'recovery' }) : null;
      return prepareEmailToken(trx, deps, { user, type: 'recovery', to: user.email, redirectTo, flowStateId });
    });
    await mail?.send();
    return c.json({});
  });

  app.get('/verify', async (c) => {
    await rateLimit(c, deps, 'verify');
    const type = c.req.query('type') ?? '';
    const token = c.req.query('token') ?? '';
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), defaultPath(type));
    if (!token || !VERIFY_TYPES.includes(type)) return c.redirect(withFragment(redirectTo, LINK_INVALID), 303);
    let outcome: VerifyOutcome;
    try {
      outcome = await verifyToken(c, deps, type, { token });
    } catch (error) {
      // A browser opened this link: errors travel back on the redirect, not as JSON.
      if (!(error instanceof AuthHttpError) || error.status >= 500) throw error;
      return c.redirect(
        withFragment(redirectTo, { error: 'access_denied', error_code: error.code, error_description: error.message }),
        303,
      );
    }
    if (outcome.kind === 'invalid') return c.redirect(withFragment(redirectTo, LINK_INVALID), 303);
    if (outcome.kind === 'code') return c.redirect(withQuery(redirectTo, { code: outcome.code }), 303);
    const { session } = outcome;
    return c.redirect(
      withFragment(redirectTo, {
        access_token: session.access_token,
        expires_at: session.expires_at,
        expires_in: session.expires_in,
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type: outcome.type,
      }),
      303,
    );
  });

  app.post('/verify', async (c) => {
    await rateLimit(c, deps, 'verify');
    const body = await readBody(c);
    const type = stringField(body, 'type');
    if (!type || !VERIFY_TYPES.includes(type)) throw validationFailed(`type must be one of ${VERIFY_TYPES.join(', ')}`);
    const tokenHash = stringField(body, 'token_hash');
    const code = stringField(body, 'token');
    let lookup: Parameters<typeof consumeEmailToken>[2];
    if (tokenHash) {
      lookup = { token: tokenHash };
    } else if (code) {
      const email = readEmail(body, 'Verify requires an email with the token');
      const user = await findUserByEmail(deps.db, email);
      // An email change is confirmed with the code sent to the new address.
      const owner = user ?? (await selectUserByPendingEmail(deps.db, email));
      if (!owner) throw forbidden('otp_expired', 'Token has expired or is invalid');
      lookup = { userId: owner.id, otp: code.trim() };
    } else {
      throw validationFailed('Verify requires either a token or a token hash');
    }
    const outcome = await verifyToken(c, deps, type, lookup);
    if (outcome.kind === 'invalid') throw forbidden('otp_expired', 'Token has expired or is invalid');
    if (outcome.kind === 'code')
      throw new AuthHttpError(400, 'validation_failed', 'This token belongs to a PKCE flow: open the link instead');
    return c.json(outcome.session);
  });

  return app;
}
