import type { Context } from 'hono';
import { randomToken, safeEqual } from '../crypto/tokens';
import { settingOrInsert } from '../db/settings';
import type { Db } from '../db/types';
import { AuthHttpError, forbidden } from './errors';

// The service-role key: the secret key of the GoTrue admin API (/auth/v1/admin/*, /invite).
// Generated once and kept in the `settings` table beside the publishable key, so every server
// process on one database shares it. It belongs on trusted servers only: it creates, reads and
// deletes any user. A user's access token is never accepted where it is required.

const SETTING = 'service_role_key';

/** The server's service-role key, created on first use (the first writer wins). */
export function serviceRoleKey(db: Db): Promise<string> {
  return settingOrInsert(db, SETTING, `sk_lime_${randomToken(32)}`);
}

/** Loads the key once per app; a failed load is retried on the next request. */
export function cachedServiceRoleKey(db: Db): () => Promise<string> {
  let loading: Promise<string> | undefined;
  return () => {
    loading ??= serviceRoleKey(db).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * GoTrue's admin check: no bearer token is 401 `no_authorization`; any bearer that is not the
 * service-role key (a user's access token included) is 403 `not_admin` "User not allowed".
 */
export async function requireServiceRole(c: Context, key: () => Promise<string>): Promise<void> {
  const match = c.req.header('authorization')?.match(/^Bearer\s+(.+)$/i);
  const token = match?.[1]?.trim();
  if (!token) throw new AuthHttpError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  if (!safeEqual(token, await key())) throw forbidden('not_admin', 'User not allowed');
}
