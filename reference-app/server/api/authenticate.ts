import type { Context } from 'hono';
import { issuerOf } from '../auth/deps';
import { sha256 } from '../crypto/tokens';
import type { ApiDeps } from './deps';
import { unauthorized } from '../errors';
import { monthKey } from './months';

// Who calls the platform API: a bearer access token from the auth API (verified with the same
// keys) or an API key (`lime_…`, looked up by its hash). The mount list (mounts.ts) decides
// which routes need a caller; handlers read it from `c.var.caller`.

export interface ApiCaller {
  userId: string;
  email: string;
  via: 'token' | 'api_key';
  /** The auth session behind an access token (absent for API keys). */
  sessionId?: string;
  /** The token's assurance level: `aal2` after an MFA verification (absent for API keys). */
  aal?: 'aal1' | 'aal2';
}

/** Hono environment of routes that run only with a caller. */
export interface SignedInEnv {
  Variables: { caller: ApiCaller };
}

/** Hono environment of routes that work anonymously and use a caller when one is sent. */
export interface MaybeSignedInEnv {
  Variables: { caller: ApiCaller | undefined };
}

export const API_KEY_PREFIX = 'lime_';
export const MISSING_CREDENTIALS = 'Not authenticated: send the header Authorization: Bearer <access token or API key>';

function bearerOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (!header) return undefined;
  const match = header.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw unauthorized('The Authorization header must have the form: Bearer <access token or API key>');
  return match[1];
}

async function fromApiKey(deps: ApiDeps, key: string): Promise<ApiCaller> {
  const row = await deps.db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select(['api_keys.id', 'api_keys.user_id', 'api_keys.expiration_date', 'users.email'])
    .where('api_keys.key_hash', '=', sha256(key))
    .executeTakeFirst();
  if (!row) throw unauthorized('Invalid API key');
  if (row.expiration_date.getTime() < Date.now()) {
    throw unauthorized(`API key expired on ${row.expiration_date.toISOString().slice(0, 10)}; create a new one`);
  }
  const now = new Date();
  await deps.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.id).execute();
  await deps.db
    .insertInto('api_usage')
    .values({ user_id: row.user_id, month: monthKey(now), calls: 1 })
    .onConflict((oc) => oc.columns(['user_id', 'month']).doUpdateSet((eb) => ({ calls: eb('api_usage.calls', '+', 1) })))
    .execute();
  return { userId: row.user_id, email: row.email, via: 'api_key' };
}

async function fromAccessToken(deps: ApiDeps, token: string): Promise<ApiCaller> {
  try {
    const claims = await deps.keys.verify(token, { issuer: issuerOf(deps.config), audience: 'authenticated' });
    if (typeof claims.sub !== 'string') throw new Error('no sub');
    return {
      userId: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : '',
      via: 'token',
      ...(typeof claims.session_id === 'string' ? { sessionId: claims.session_id } : {}),
      aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    };
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
    throw unauthorized(expired ? 'Access token expired: refresh the session and retry' : 'Invalid access token');
  }
}

/** The caller named by the Authorization header, undefined without one, 401 for a bad one. */
export async function callerOf(c: Context, deps: ApiDeps): Promise<ApiCaller | undefined> {
  const token = bearerOf(c);
  if (!token) return undefined;
  return token.startsWith(API_KEY_PREFIX) ? fromApiKey(deps, token) : fromAccessToken(deps, token);
}
