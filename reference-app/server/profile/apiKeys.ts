import { conflict, notFound } from '../errors';
import { randomToken, sha256 } from '../crypto/tokens';
import type { Db } from '../db/types';
import { countApiKeys, deleteApiKeyRow, insertApiKey, selectApiKeyByHash, selectApiKeys, setApiKeyLastUsed } from './queries';
import { countApiCall } from './usage';

// API keys: the secret is shown once, at creation, and stored only as its SHA-256 hash (a key
// is a long random token, so a fast hash is enough); lists show a masked form. The only writer
// of `api_keys`; profile/callers.ts looks keys up through findApiKey and recordApiKeyUse.

/** Every API key starts with this, which tells it from an access token. */
export const API_KEY_PREFIX = 'lime_';

export const MAX_API_KEYS = 25;
export const MAX_API_KEY_LIFETIME_DAYS = 3650;
export const MAX_API_KEY_NAME_LENGTH = 60;
const DAY_MS = 86_400_000;

/** The name a key gets when its owner gives none (also that of keys made before keys had names). */
export const DEFAULT_API_KEY_NAME = 'API key';

/**
 * What every key may do, as v1/mounts.ts grants it: run services (jobs, files) and publish the
 * owner's own services (`limelight deploy`). Keys have no narrower scopes; account routes (keys,
 * profile, payments, support) refuse them. Listed with each key so its page says so.
 */
export const API_KEY_SCOPES = ['services:run', 'services:publish'] as const;

export interface ApiKeyView {
  id: string;
  name: string;
  display_value: string;
  scopes: (typeof API_KEY_SCOPES)[number][];
  created_at: string;
  expiration_date: string;
  /** The last call the key authenticated; null when it was never used. */
  last_used_at: string | null;
}

const maskKey = (secret: string) => `${API_KEY_PREFIX}…${secret.slice(-4)}`;

interface ApiKeyRow {
  id: string;
  name: string;
  display_value: string;
  created_at: Date;
  expiration_date: Date;
  last_used_at: Date | null;
}

const viewOf = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  name: row.name,
  display_value: row.display_value,
  scopes: [...API_KEY_SCOPES],
  created_at: row.created_at.toISOString(),
  expiration_date: row.expiration_date.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  return (await selectApiKeys(db, userId)).map(viewOf);
}

/** Mints a key valid for `days`; 409 once the user has MAX_API_KEYS. */
export async function createApiKey(
  db: Db,
  userId: string,
  days: number,
  name: string = DEFAULT_API_KEY_NAME,
): Promise<ApiKeyView & { secret: string }> {
  if ((await countApiKeys(db, userId)) >= MAX_API_KEYS) throw conflict(`You have ${MAX_API_KEYS} API keys, the maximum; delete one first`);
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  const row = await insertApiKey(db, {
    user_id: userId,
    key_hash: sha256(secret),
    display_value: maskKey(secret),
    name,
    expiration_date: new Date(Date.now() + days * DAY_MS),
  });
  return { ...viewOf(row), secret };
}

/** The key's row and its owner, found by the key's hash; undefined for an unknown key. */
export function findApiKey(db: Db, key: string) {
  return selectApiKeyByHash(db, sha256(key));
}

/** A call authenticated with the key: its last use, and one more call in the owner's usage. */
export async function recordApiKeyUse(db: Db, key: { id: string; user_id: string }, at = new Date()): Promise<void> {
  await setApiKeyLastUsed(db, key.id, at);
  await countApiCall(db, key.user_id, at);
}

export async function deleteApiKey(db: Db, userId: string, id: string): Promise<{ id: string }> {
  const deleted = await deleteApiKeyRow(db, userId, id);
  if (!deleted) throw notFound(`api_key_id: no API key ${id} among yours`);
  return deleted;
}
