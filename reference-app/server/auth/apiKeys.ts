import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CoreConfig } from '../config/core';
import { randomToken } from '../crypto/tokens';
import { settingOrInsert, settingValues } from '../db/settings';
import type { Db } from '../db/types';
import { SERVICE_ROLE_SETTING, serviceRoleKey } from './serviceRole';

// The auth API's two keys (reference-app/server/README.md, "Auth keys"): the publishable (anon)
// key, public, and the service-role key, the admin API's. ANON_KEY and SERVICE_ROLE_KEY set
// them; else the server makes them on first start and keeps them in the `settings` table, shared
// by every process on the database. `npm run keys` prints them (keys.ts).

export const PUBLISHABLE_SETTING = 'publishable_key';

export type KeySource = 'environment' | 'database';

export interface ApiKeys {
  publishable: string;
  serviceRole: string;
  from: { anon: KeySource; serviceRole: KeySource };
}

/** The keys this server accepts: the environment's, else the stored ones (made now if missing). */
export async function resolveApiKeys(db: Db, config: CoreConfig, preferredPublishable?: string): Promise<ApiKeys> {
  const anon = preferredPublishable ?? config.apiKeys.anon;
  return {
    publishable: anon ?? (await settingOrInsert(db, PUBLISHABLE_SETTING, `pk_lime_${randomToken(24)}`)),
    serviceRole: config.apiKeys.serviceRole ?? (await serviceRoleKey(db)),
    from: { anon: anon ? 'environment' : 'database', serviceRole: config.apiKeys.serviceRole ? 'environment' : 'database' },
  };
}

/**
 * PGlite lives inside the server's process, so no other process may open it while the server
 * runs: the server writes its keys beside it, in DATA_DIR (which already holds the database
 * files and secret.key, readable by the same account only), for `npm run keys` to read.
 */
export const keysFile = (dataDir: string) => path.join(dataDir, 'api-keys.json');

interface KeysFile {
  note: string;
  anon_key: string;
  anon_key_from: KeySource;
  /** null when SERVICE_ROLE_KEY sets it: a key the operator keeps in the environment is not written to disk. */
  service_role_key: string | null;
  service_role_key_from: KeySource;
}

export function writeKeysFile(dataDir: string, keys: ApiKeys): void {
  const body: KeysFile = {
    note: 'Written by the server at start for `npm run keys`; editing it changes nothing (ANON_KEY and SERVICE_ROLE_KEY set the keys).',
    anon_key: keys.publishable,
    anon_key_from: keys.from.anon,
    service_role_key: keys.from.serviceRole === 'environment' ? null : keys.serviceRole,
    service_role_key_from: keys.from.serviceRole,
  };
  const file = keysFile(dataDir);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(body, null, 2) + '\n', { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}

/** A key as `npm run keys` finds it: its value, unless it is only in the running server's environment. */
export interface FoundKey {
  value: string | undefined;
  from: KeySource;
}

export class KeysUnavailableError extends Error {
  override name = 'KeysUnavailableError';
}

/** The stored keys: from the file the PGlite server writes, or from PostgreSQL's `settings` table. */
export async function storedApiKeys(
  config: CoreConfig,
  openPostgres: () => Promise<{ db: Db; close(): Promise<void> }>,
): Promise<{ anon: FoundKey; serviceRole: FoundKey }> {
  if (!config.databaseUrl) {
    const file = keysFile(config.dataDir);
    if (!existsSync(file)) {
      const started = existsSync(path.join(config.dataDir, 'pglite'));
      throw new KeysUnavailableError(
        started
          ? `${file} is missing: the server writes it at start. Restart the server once (npm run dev or npm start) with DATA_DIR=${config.dataDir}.`
          : `No database in ${config.dataDir} yet: start the server once (npm run dev or npm start) and it makes the keys.`,
      );
    }
    const body = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeysFile>;
    if (typeof body.anon_key !== 'string')
      throw new KeysUnavailableError(`${file} holds no anon_key: restart the server to write it again.`);
    return {
      anon: { value: body.anon_key, from: body.anon_key_from ?? 'database' },
      serviceRole: { value: body.service_role_key ?? undefined, from: body.service_role_key_from ?? 'database' },
    };
  }
  // PostgreSQL takes several clients: read the table the servers share.
  const database = await openPostgres();
  try {
    const stored = await settingValues(database.db, [PUBLISHABLE_SETTING, SERVICE_ROLE_SETTING]).catch((error: unknown) => {
      throw new KeysUnavailableError(
        `Could not read the settings table (${(error as Error).message}): has the server started once on this database?`,
      );
    });
    const value = (key: string) => stored.get(key);
    if (!value(PUBLISHABLE_SETTING) && !value(SERVICE_ROLE_SETTING))
      throw new KeysUnavailableError('The database holds no keys yet: start the server once (npm start) and it makes them.');
    return {
      anon: { value: value(PUBLISHABLE_SETTING), from: 'database' },
      serviceRole: { value: value(SERVICE_ROLE_SETTING), from: 'database' },
    };
  } finally {
    await database.close();
  }
}
