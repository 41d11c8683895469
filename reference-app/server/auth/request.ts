import type { Context } from 'hono';
import { errors as joseErrors } from 'jose';
import { clientIp } from '../http/clientIp';
import { mailAllowed, type MailKind } from '../mail/mailRateLimit';
import { issuerOf, type AuthDeps } from './deps';
import { AuthHttpError, badRequest, forbidden, tooManyRequests } from './errors';
import { selectSession } from './queries';
import type { ClientInfo, SessionRow } from './sessions';
import { findUserById, type UserRow } from './userRecords';

// Request plumbing shared by the auth handlers: JSON bodies, the caller's session, rate limits.

export type Body = Record<string, unknown>;

/** The JSON object body; `null` fields count as absent (supabase-js sends `code_challenge: null`). */
export async function readBody(c: Context): Promise<Body> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw badRequest('bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('bad_json', 'Request body must be a JSON object');
  }
  return Object.fromEntries(Object.entries(parsed as Body).filter(([, v]) => v !== null));
}

/** A string field, or undefined; anything else is a validation error naming the field. */
export function stringField(body: Body, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest('validation_failed', `${name} must be a string`);
  return value;
}

export function objectField(body: Body, name: string): Record<string, unknown> | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('validation_failed', `${name} must be an object`);
  return value as Record<string, unknown>;
}

export function clientInfo(c: Context, deps: AuthDeps): ClientInfo {
  return { ip: clientIp(c, deps.config.trustProxy), userAgent: c.req.header('user-agent') };
}

type Bucket = Exclude<keyof AuthDeps['config']['rateLimits'], 'windowSeconds' | 'signInAccount'>;

/**
 * Counts the request against the bucket's per-IP limit; throws GoTrue's 429 when over it.
 * Call it outside transactions: the counter is a statement of its own on the database.
 */
export async function rateLimit(c: Context, deps: AuthDeps, bucket: Bucket): Promise<void> {
  const decision = await deps.limiter.hit(bucket, clientIp(c, deps.config.trustProxy), deps.config.rateLimits[bucket]);
  if (decision.allowed) return;
  c.header('Retry-After', String(decision.retryAfter));
  throw bucket === 'emailSent'
    ? tooManyRequests('over_email_send_rate_limit', 'Email rate limit exceeded')
    : tooManyRequests('over_request_rate_limit', 'Request rate limit reached');
}

/** The per-address mail interval (mail/mailRateLimit.ts) with GoTrue's answer when it applies. */
export async function limitMailTo(c: Context, deps: AuthDeps, kind: MailKind, to: string): Promise<void> {
  const decision = await mailAllowed(deps, kind, to);
  if (decision.allowed) return;
  c.header('Retry-After', String(decision.retryAfter));
  throw tooManyRequests(
    'over_email_send_rate_limit',
    `For security purposes, you can only request this after ${decision.retryAfter} seconds.`,
  );
}

export interface Caller {
  user: UserRow;
  session: SessionRow;
  claims: Record<string, unknown>;
  token: string;
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim();
}

/** The signed-in caller of a user endpoint, with GoTrue's errors for each way that fails. */
export async function requireCaller(c: Context, deps: AuthDeps): Promise<Caller> {
  const token = bearer(c);
  if (!token) throw new AuthHttpError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  let claims: Record<string, unknown>;
  try {
    claims = await deps.keys.verify(token, { issuer: issuerOf(deps.config), audience: 'authenticated' });
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token has invalid claims: token is expired'
        : error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid
          ? 'token is malformed'
          : 'unable to parse or verify signature';
    throw forbidden('bad_jwt', `invalid JWT: ${reason}`);
  }
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  const session = sessionId ? await selectSession(deps.db, sessionId) : undefined;
  if (!session) throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  const user = await findUserById(deps.db, String(claims.sub));
  if (!user || session.user_id !== user.id) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  return { user, session, claims, token };
}

/** The caller when a valid token is present; undefined otherwise (used by logout). */
export async function optionalCaller(c: Context, deps: AuthDeps): Promise<Caller | undefined> {
  try {
    return await requireCaller(c, deps);
  } catch (error) {
    if (error instanceof AuthHttpError && error.code === 'session_not_found') return undefined;
    throw error;
  }
}
