import type { Context, MiddlewareHandler } from 'hono';
import { issuerOf } from '../auth/deps';
import { sha256 } from '../crypto/tokens';
import { monthKey } from './months';
import type { ApiDeps } from './deps';
import { unauthorized } from './errors';

// Who calls the platform API: a bearer access token from the auth API (verified with the same
// keys, without a database round trip) or an API key (`lime_…`, looked up by its hash).

export interface ApiCaller {
  userId: string;
  email: string;
  via: 'token' | 'api_key';
}

export const API_KEY_PREFIX = 'lime_';
const MISSING = 'Not authenticated: send the header Authorization: Bearer <access token or API key>';

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
    return { userId: claims.sub, email: typeof claims.email === 'string' ? claims.email : '', via: 'token' };
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
    throw unauthorized(expired ? 'Access token expired: refresh the session and retry' : 'Invalid access token');
  }
}

async function resolve(c: Context, deps: ApiDeps): Promise<ApiCaller | undefined> {
  const token = bearerOf(c);
  if (!token) return undefined;
  return token.startsWith(API_KEY_PREFIX) ? fromApiKey(deps, token) : fromAccessToken(deps, token);
}

// One resolution per request: the route middleware authenticates, the handler reuses it.
const resolved = new WeakMap<Request, ApiCaller>();

/** The authenticated caller, or 401 with a detail saying what is wrong. */
export async function requireCaller(c: Context, deps: ApiDeps): Promise<ApiCaller> {
  const known = resolved.get(c.req.raw);
  if (known) return known;
  const caller = await resolve(c, deps);
  if (!caller) throw unauthorized(MISSING);
  resolved.set(c.req.raw, caller);
  return caller;
}

/** Route middleware: authenticate before the body is validated (a stranger learns nothing). */
export const authenticate =
  (deps: ApiDeps): MiddlewareHandler =>
  async (c, next) => {
    await requireCaller(c, deps);
    await next();
  };

/**
 * The caller when a valid credential is sent. A stale or broken one counts as anonymous: the
 * public catalogue must load even when the browser still holds an expired session.
 */
export async function optionalCaller(c: Context, deps: ApiDeps): Promise<ApiCaller | undefined> {
  try {
    return await resolve(c, deps);
  } catch {
    return undefined;
  }
}
