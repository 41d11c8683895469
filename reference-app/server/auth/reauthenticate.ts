import { Hono } from 'hono';
import { randomDigits, randomToken, sha256 } from '../crypto/tokens';
import type { Db } from '../db/types';
import type { AuthDeps } from './deps';
import { consumeOneTimeToken, pendingMail } from './emailTokens';
import { badRequest, tooManyRequests, unprocessable } from './errors';
import { reauthenticationMail } from './mails';
import { replaceOneTimeToken } from './queries';
import { rateLimit, requireCaller } from './request';

// GET /reauthenticate: a 6-digit code mailed to the signed-in user, to prove it is them again
// before a sensitive change; PUT /user takes it as `nonce` (GoTrue's contract).

const KIND = 'reauthentication';

/** Uses up the code; a wrong one is counted (committed) before the 422 goes out. */
export async function verifyReauthenticationNonce(db: Db, userId: string, nonce: string): Promise<void> {
  const row = await db.transaction().execute((trx) => consumeOneTimeToken(trx, [KIND], { userId, otp: nonce.trim() }));
  if (!row) throw unprocessable('reauthentication_not_valid', 'Nonce has expired or is invalid');
}

export function reauthenticateRoutes(deps: AuthDeps) {
  const app = new Hono();

  app.get('/reauthenticate', async (c) => {
    const { user } = await requireCaller(c, deps);
    if (!user.email) throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number');
    if (!user.email_confirmed_at) throw unprocessable('email_not_confirmed', 'Please verify your email first.');
    await rateLimit(c, deps, 'emailSent');
    // One code per address per EMAIL_MIN_INTERVAL, like every other auth mail (mail/mailRateLimit.ts).
    const interval = deps.config.emailMinIntervalSeconds;
    const decision = await deps.limiter.hit(`mail:${KIND}`, user.email, interval > 0 ? 1 : 0, Math.max(interval, 1));
    if (!decision.allowed) {
      c.header('Retry-After', String(decision.retryAfter));
      throw tooManyRequests(
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${decision.retryAfter} seconds.`,
      );
    }
    const otp = randomDigits(6);
    await replaceOneTimeToken(deps.db, {
      user_id: user.id,
      token_type: KIND,
      // The code is the only secret of this mail; the row still needs a unique link hash.
      token_hash: sha256(randomToken(32)),
      otp_hash: sha256(`${user.id}:${otp}`),
      relates_to: user.email,
      expires_at: new Date(Date.now() + deps.config.magicLinkTtlSeconds * 1000),
    });
    await pendingMail(deps, reauthenticationMail(deps.config.brandName, user.email, otp), KIND).send();
    return c.json({});
  });

  return app;
}
