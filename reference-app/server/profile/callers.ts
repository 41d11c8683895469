import type { Context } from 'hono';
import type { ApiCaller } from '../api/authenticate';
import { issuerOf, type AuthDeps } from '../auth/deps';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import { unauthorized } from '../errors';
import { API_KEY_PREFIX, findApiKey, recordApiKeyUse } from './apiKeys';

// Who calls the platform API: a bearer access token from the auth API (verified with the same
// keys) or an API key (`lime_…`, looked up by its hash). The guard (api/access.ts) asks for the
// caller of each guarded route, the registry's token endpoint for its Basic password; handlers
// read it from `c.var.caller` (api/authenticate.ts).

/** What finding a caller reads: API keys in the database, access tokens with the auth's keys. */
export interface CallerDeps {
  db: Db;
  keys: AuthDeps['keys'];
  config: CoreConfig;
}

function bearerOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  if (!header) return undefined;
  const match = header.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) throw unauthorized('The Authorization header must have the form: Bearer <access token or API key>');
  return match[1];
}

async function fromApiKey(deps: CallerDeps, key: string): Promise<ApiCaller> {
  const row = await findApiKey(deps.db, key);
  if (!row) throw unauthorized('Invalid API key');
  if (row.expiration_date.getTime() < Date.now()) {
    throw unauthorized(`API key expired on ${row.expiration_date.toISOString().slice(0, 10)}; create a new one`);
  }
  await recordApiKeyUse(deps.db, row);
  return { userId: row.user_id, email: row.email, via: 'api_key' };
}

/**
 * A verified access token is trusted again for this long (never past its expiry): checking an
 * ES256 signature costs more CPU than the rest of a small request (docs/jobs.md: speed). Only
 * the signature check is reused; whether the session is still alive is asked on every request
 * (api/access.ts), so a sign-out takes effect as before.
 */
const VERIFIED_TRUST_MS = 5_000;
const MAX_VERIFIED = 10_000;
/** Per server's keys, so servers sharing a process never trust each other's tokens. */
const verifiedTokens = new WeakMap<CallerDeps['keys'], Map<string, { caller: ApiCaller; until: number }>>();

async function fromAccessToken(deps: CallerDeps, token: string): Promise<ApiCaller> {
  let verified = verifiedTokens.get(deps.keys);
  if (!verified) verifiedTokens.set(deps.keys, (verified = new Map()));
  const hit = verified.get(token);
  if (hit && hit.until > Date.now()) return hit.caller;
  const caller = await verifyAccessToken(deps, token);
  if (verified.size >= MAX_VERIFIED) verified.clear();
  verified.set(token, { caller: caller.caller, until: Math.min(Date.now() + VERIFIED_TRUST_MS, caller.expiresAt) });
  return caller.caller;
}

async function verifyAccessToken(deps: CallerDeps, token: string): Promise<{ caller: ApiCaller; expiresAt: number }> {
  try {
    const claims = await deps.keys.verify(token, { issuer: issuerOf(deps.config), audience: 'authenticated' });
    if (typeof claims.sub !== 'string') throw new Error('no sub');
    const caller: ApiCaller = {
      userId: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : '',
      via: 'token',
      ...(typeof claims.session_id === 'string' ? { sessionId: claims.session_id } : {}),
      aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    };
    return { caller, expiresAt: typeof claims.exp === 'number' ? claims.exp * 1000 : 0 };
  } catch (error) {
    const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
    throw unauthorized(expired ? 'Access token expired: refresh the session and retry' : 'Invalid access token');
  }
}

/** The caller named by the Authorization header, undefined without one, 401 for a bad one. */
export async function callerOf(c: Context, deps: CallerDeps): Promise<ApiCaller | undefined> {
  const token = bearerOf(c);
  if (!token) return undefined;
  return callerOfSecret(deps, token);
}

/** The caller an API key or access token names (also the registry's Basic password); 401 for a bad one. */
export function callerOfSecret(deps: CallerDeps, secret: string): Promise<ApiCaller> {
  return secret.startsWith(API_KEY_PREFIX) ? fromApiKey(deps, secret) : fromAccessToken(deps, secret);
}
