import { API_KEY_PREFIX } from '../api/authenticate';
import { conflict, notFound } from '../errors';
import { randomToken, sha256 } from '../crypto/tokens';
import type { Db } from '../db/types';
import { countApiKeys, deleteApiKeyRow, insertApiKey, selectApiKeys } from './queries';

// API keys: the secret is shown once, at creation, and stored only as its SHA-256 hash (a key
// is a long random token, so a fast hash is enough); lists show a masked form.

export const MAX_API_KEYS = 25;
export const MAX_API_KEY_LIFETIME_DAYS = 3650;
const DAY_MS = 86_400_000;

export interface ApiKeyView {
  id: string;
  display_value: string;
  created_at: string;
  expiration_date: string;
}

const maskKey = (secret: string) => `${API_KEY_PREFIX}…${secret.slice(-4)}`;

const viewOf = (row: { id: string; display_value: string; created_at: Date; expiration_date: Date }): ApiKeyView => ({
  id: row.id,
  display_value: row.display_value,
  created_at: row.created_at.toISOString(),
  expiration_date: row.expiration_date.toISOString(),
});

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  return (await selectApiKeys(db, userId)).map(viewOf);
}

/** Mints a key valid for `days`; 409 once the user has MAX_API_KEYS. */
export async function createApiKey(db: Db, userId: string, days: number): Promise<ApiKeyView & { secret: string }> {
  if ((await countApiKeys(db, userId)) >= MAX_API_KEYS) throw conflict(`You have ${MAX_API_KEYS} API keys, the maximum; delete one first`);
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row = await insertApiKey(db, {
    user_id: userId,
    key_hash: sha256(secret),
    display_value: maskKey(secret),
    expiration_date: new Date(Date.now() + days * DAY_MS),
  });
  return { ...viewOf(row), secret };
}

export async function deleteApiKey(db: Db, userId: string, id: string): Promise<{ id: string }> {
  const deleted = await deleteApiKeyRow(db, userId, id);
  if (!deleted) throw notFound(`api_key_id: no API key ${id} among yours`);
  return deleted;
}
