import type { Context } from 'hono';
import { randomToken, safeEqual } from '../crypto/tokens';
import { settingOrInsert } from '../db/settings';
import type { Db } from '../db/types';
import { AuthHttpError, forbidden } from './errors';

// The service-role key: the secret key of the GoTrue admin API (/auth/v1/admin/*, /invite).
// SERVICE_ROLE_KEY sets it; else it is generated once and kept in the `settings` table beside
// the publishable key, so every server process on one database shares it (apiKeys.ts). It
// belongs on trusted servers only: it creates, reads and deletes any user. A user's access
// token is never accepted where it is required.

export const SERVICE_ROLE_SETTING = 'service_role_key';

/** The server's stored service-role key, created on first use (the first writer wins). */
export function serviceRoleKey(db: Db): Promise<string> {
  return settingOrInsert(db, SERVICE_ROLE_SETTING, `sk_lime_${randomToken(32)}`);
}

/**
 * The key the admin API accepts: SERVICE_ROLE_KEY's when set (the stored one is then refused),
 * else the stored one, loaded once per app; a failed load is retried on the next request.
 */
export function cachedServiceRoleKey(db: Db, fromEnvironment?: string): () => Promise<string> {
  if (fromEnvironment) return () => Promise.resolve(fromEnvironment);
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
