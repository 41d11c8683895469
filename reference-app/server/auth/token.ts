import { Hono, type Context } from 'hono';
import { sha256 } from '../crypto/tokens';
import type { AuthDeps } from './deps';
import { badRequest, invalidCredentials, oauthError, tooManyRequests, validationFailed } from './errors';
import { idTokenGrant } from './idToken';
import { verifyPassword } from './passwords';
import { redeemAuthCode } from './pkce';
import {
  deleteSession,
  revokeRefreshToken,
  selectActiveRefreshToken,
  selectRefreshTokenByHash,
  selectSessionForUpdate,
  updateSession,
} from './queries';
import { clientInfo, rateLimit, readBody, stringField } from './request';
import { issueRefreshToken, sessionResponse, signIn, type SessionResponse } from './sessions';
import { findUserByEmail, findUserById, isBanned, normalizeEmail } from './userRecords';

// POST /token: password sign-in, refresh-token rotation with reuse detection, PKCE exchange.

const SIGN_IN_ACCOUNT_BUCKET = 'signInAccount';

const notFoundToken = () => oauthError(400, 'invalid_grant', 'Invalid Refresh Token: Refresh Token Not Found', 'refresh_token_not_found');
const alreadyUsed = () => oauthError(400, 'invalid_grant', 'Invalid Refresh Token: Already Used', 'refresh_token_already_used');

/**
 * Password sign-in. Besides the per-IP limit, each account allows RATE_LIMIT_SIGN_IN_ACCOUNT
 * failed attempts per window from anywhere, so guessing one password from many addresses gets
 * no further. An attempt is counted before the password is checked (parallel guesses cannot
 * overtake the count) and handed back when it succeeds.
 */
async function passwordGrant(c: Context, deps: AuthDeps): Promise<SessionResponse> {
  await rateLimit(c, deps, 'signIn');
  const body = await readBody(c);
  const email = stringField(body, 'email');
  const password = stringField(body, 'password');
  if (!email) throw validationFailed(body.phone !== undefined ? 'Phone logins are disabled' : 'missing email or phone');
  if (!password) throw validationFailed('missing password');
  const account = normalizeEmail(email);
  const attempt = await deps.limiter.hit(SIGN_IN_ACCOUNT_BUCKET, account, deps.config.rateLimits.signInAccount);
  if (!attempt.allowed) {
    c.header('Retry-After', String(attempt.retryAfter));
    throw tooManyRequests(
      'over_request_rate_limit',
      `Too many failed sign-in attempts for this account: try again in ${attempt.retryAfter} seconds or reset the password`,
    );
  }
  const user = await findUserByEmail(deps.db, account);
  const ok = await verifyPassword(user?.encrypted_password, password);
  if (!user || !ok) throw invalidCredentials();
  await deps.limiter.refund(SIGN_IN_ACCOUNT_BUCKET, account, deps.config.rateLimits.signInAccount);
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at && !deps.config.mailerAutoconfirm) throw badRequest('email_not_confirmed', 'Email not confirmed');
  return deps.db.transaction().execute((trx) => signIn(trx, deps, user, 'password', clientInfo(c, deps)));
}

/**
 * GoTrue's rotation: each refresh revokes the token and issues its child. A revoked token is
 * accepted again only when its child is the session's active token (a client that lost the
 * answer gets that same child back) or within the reuse interval; any other reuse means the
 * token was stolen, and the whole session ends.
 */
async function refreshGrant(c: Context, deps: AuthDeps): Promise<SessionResponse> {
  await rateLimit(c, deps, 'tokenRefresh');
  const body = await readBody(c);
  const token = stringField(body, 'refresh_token');
  if (!token) throw oauthError(400, 'invalid_request', 'refresh_token required', 'validation_failed');
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const found = await selectRefreshTokenByHash(trx, sha256(token));
    if (!found) return { error: notFoundToken() };
    // Lock the session first: concurrent refreshes of one session take turns. The token is
    // read again under that lock (a concurrent refresh may have revoked it meanwhile).
    const session = await selectSessionForUpdate(trx, found.session_id);
    if (!session) return { error: notFoundToken() };
    const row = await selectRefreshTokenByHash(trx, sha256(token));
    if (!row) return { error: notFoundToken() };
    const user = await findUserById(trx, session.user_id);
    if (!user) return { error: notFoundToken() };
    if (isBanned(user)) return { error: badRequest('user_banned', 'User is banned') };

    let next: string | undefined;
    if (row.revoked) {
      const active = await selectActiveRefreshToken(trx, session.id);
      if (active && active.parent_id === row.id) {
        next = deps.box.open(active.token_enc);
      } else {
        const reuseUntil = row.updated_at.getTime() + deps.config.refreshTokenReuseIntervalSeconds * 1000;
        if (Date.now() > reuseUntil) {
          await deleteSession(trx, session.id);
          return { error: alreadyUsed() };
        }
      }
    } else {
      await revokeRefreshToken(trx, row.id);
    }
    next ??= await issueRefreshToken(trx, deps, session, row.id);
    const now = new Date();
    await updateSession(trx, session.id, { refreshed_at: now, updated_at: now });
    return { session: await sessionResponse(trx, deps, user, session, next) };
  });
  // The family revocation must commit before the error goes out, hence no throw inside.
  if ('error' in outcome && outcome.error) throw outcome.error;
  return (outcome as { session: SessionResponse }).session;
}

async function pkceGrant(c: Context, deps: AuthDeps): Promise<SessionResponse> {
  await rateLimit(c, deps, 'signIn');
  const body = await readBody(c);
  const authCode = stringField(body, 'auth_code');
  const verifier = stringField(body, 'code_verifier');
  if (!authCode || !verifier) throw validationFailed('invalid request: both auth code and code verifier should be non-empty');
  return deps.db.transaction().execute(async (trx) => {
    const { userId, method } = await redeemAuthCode(trx, authCode, verifier);
    const user = await findUserById(trx, userId);
    if (!user) throw invalidCredentials();
    return signIn(trx, deps, user, method === 'email/signup' ? 'otp' : method, clientInfo(c, deps));
  });
}

export function tokenRoutes(deps: AuthDeps) {
  const app = new Hono();
  app.post('/token', async (c) => {
    const grant = c.req.query('grant_type');
    if (grant === 'password') return c.json(await passwordGrant(c, deps));
    if (grant === 'refresh_token') return c.json(await refreshGrant(c, deps));
    if (grant === 'pkce') return c.json(await pkceGrant(c, deps));
    if (grant === 'id_token') return idTokenGrant(c, deps);
    throw oauthError(400, 'unsupported_grant_type', `unsupported grant_type ${JSON.stringify(grant ?? '')}`, 'validation_failed');
  });
  return app;
}
