import { pathToFileURL } from 'node:url';
import { KeysUnavailableError, storedApiKeys, type FoundKey } from './auth/apiKeys';
import { loadConfig, type ServerConfig } from './config';
import { ConfigError, type Env } from './config/env';
import { openDatabase } from './db/connect';

// `npm run keys`: prints the auth API's publishable (anon) and service-role keys of the server
// configured by this environment (DATA_DIR or DATABASE_URL), as .env lines, while the server
// runs or not (reference-app/server/README.md, "Auth keys"). Read from ANON_KEY and
// SERVICE_ROLE_KEY when set, else from the file the PGlite server writes in DATA_DIR, else from
// PostgreSQL. It only reads: the keys are made by the server on its first start.

export async function describeKeys(env: Env, cwd = process.cwd()): Promise<string> {
  const config: ServerConfig = loadConfig(env, cwd);
  const fromEnv = config.apiKeys;
  const stored =
    fromEnv.anon && fromEnv.serviceRole
      ? undefined
      : await storedApiKeys(config, () =>
          openDatabase({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, preparedStatements: false }),
        );
  const anon: FoundKey = fromEnv.anon ? { value: fromEnv.anon, from: 'environment' } : stored!.anon;
  const serviceRole: FoundKey = fromEnv.serviceRole ? { value: fromEnv.serviceRole, from: 'environment' } : stored!.serviceRole;
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  const source = (key: FoundKey, name: string) =>
    key.from === 'environment' ? `set by ${name}` : `made by the server, stored in ${where}`;
  const lines = [
    `# The auth API's keys of ${config.publicUrl}/auth/v1.`,
    `# Publishable (anon) key, public: browsers send it as \`apikey\`; ${source(anon, 'ANON_KEY')}.`,
    anon.value ? `ANON_KEY=${anon.value}` : `# ANON_KEY: none stored yet; start the server once.`,
    `# Service-role key, for the admin API on your servers only: it opens every account; ${source(serviceRole, 'SERVICE_ROLE_KEY')}.`,
    serviceRole.value
      ? `SERVICE_ROLE_KEY=${serviceRole.value}`
      : serviceRole.from === 'environment'
        ? `# SERVICE_ROLE_KEY: the running server has it from its environment, which is never written to disk; set it here too to print it.`
        : `# SERVICE_ROLE_KEY: none stored yet; start the server once.`,
  ];
  return lines.join('\n') + '\n';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  describeKeys(process.env).then(
    (text) => process.stdout.write(text),
    (error: unknown) => {
      const known = error instanceof ConfigError || error instanceof KeysUnavailableError;
      process.stderr.write(`npm run keys: ${known ? (error as Error).message : String((error as Error).stack ?? error)}\n`);
      process.exit(1);
    },
  );
}
