import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { createSecretBox } from './crypto/secretBox';
import { dropSchema, openDatabase } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { createPlatform, pgliteDir, type Platform, type PlatformOptions } from './platform';
import { seedDatabase } from './seed';
import { honoHandler, listen } from './server';

// A complete platform server for tests: auth, API, dev mailbox, seed data, on a free loopback
// port, with a throw-away PGlite directory, or a fresh schema in process.env.DATABASE_URL's
// PostgreSQL (dropped on close). Starting is fast: the migrated and seeded PGlite directory is
// built once per server source version, kept in the temp directory and copied.

export interface StartPlatformServerOptions {
  /** PGlite data directory to use (kept on close); default: a new temp directory (removed). */
  dataDir?: string;
  /** PostgreSQL URL; default process.env.DATABASE_URL. A fresh schema isolates the server. */
  databaseUrl?: string;
  /** PostgreSQL only: use this schema and keep it on close (restart tests); default a fresh one, dropped. */
  schema?: string;
  /** Extra environment (RATE_LIMIT_SIGN_IN, MAILER_AUTOCONFIRM, SMTP_URL, OAUTH_*, …). */
  env?: Record<string, string>;
  /** Also serve dist/app (default false). */
  serveApp?: boolean;
  /** Loopback port; default a free one. A restart test passes the previous server's port. */
  port?: number;
  /** Runtimes for the job queue (tests inject theirs through this seam). */
  runtimes?: PlatformOptions['runtimes'];
  /** The container fleet (hosting/fleet.ts); default: none attached. */
  fleet?: PlatformOptions['fleet'];
}

export interface PlatformTestServer {
  /** Origin, e.g. http://127.0.0.1:41234 (also the server's PUBLIC_URL). */
  url: string;
  authKey: string;
  platform: Platform;
  close(): Promise<void>;
}

const serverDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
    })
    .sort();
}

/** Changes with any server source file, so a stale template is never used. */
function templateKey(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(serverDir)) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_PREFIX = 'limelight-pglite-seeded-';
/** Templates of other source versions are removed once they are this old. */
const STALE_TEMPLATE_MS = 10 * 60 * 1000;

function removeStaleTemplates(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMPLATE_PREFIX) || name === keep) continue;
    const dir = path.join(tmpdir(), name);
    try {
      if (Date.now() - statSync(dir).mtimeMs > STALE_TEMPLATE_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

/**
 * A PGlite data directory, migrated and seeded, for this version of the server's sources.
 * Copying it (well under a second) replaces initdb, migrations and seeding (several seconds).
 */
let templatePromise: Promise<string> | undefined;

async function buildTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${templateKey()}`;
  const dir = path.join(tmpdir(), name);
  removeStaleTemplates(name);
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  const building = mkdtempSync(path.join(tmpdir(), `${name}.building-`));
  const database = await openDatabase({ dataDir: building, relaxedDurability: true });
  try {
    await migrateToLatest(database.db);
    // The template holds no secret worth keeping: signing keys are created per server later.
    await seedDatabase(database.db, createSecretBox(randomBytes(32)));
  } finally {
    await database.close();
  }
  try {
    renameSync(building, dir);
  } catch {
    // Another process finished first; use theirs.
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/**
 * Copies the template to `target`. Using it marks it as in use (its mtime), so another
 * process's removeStaleTemplates keeps it; should it be gone all the same (removed by a process
 * of another source version), it is built again once. Also the e2e suite's server start
 * (test/e2e/support/server.ts).
 */
export async function copyTemplate(target: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const template = await (templatePromise ??= buildTemplate());
    try {
      const now = new Date();
      utimesSync(template, now, now);
      cpSync(template, target, { recursive: true });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error;
      rmSync(target, { recursive: true, force: true });
      templatePromise = undefined;
    }
  }
}

export async function startPlatformServer(options: StartPlatformServerOptions = {}): Promise<PlatformTestServer> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? undefined;
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'limelight-test-'));
  const schema = databaseUrl ? (options.schema ?? `lime_test_${randomBytes(6).toString('hex')}`) : undefined;
  if (!databaseUrl && !existsSync(pgliteDir(dataDir))) await copyTemplate(pgliteDir(dataDir));

  const http = await listen(options.port ?? 0, '127.0.0.1');
  const url = `http://127.0.0.1:${http.port}`;
  const config = loadConfig(
    {
      PUBLIC_URL: url,
      PORT: String(http.port),
      DATA_DIR: dataDir,
      // Test servers share the machine: the platform's registry only where a test asks for it.
      PLATFORM_REGISTRY: 'off',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
      ...options.env,
    },
    process.cwd(),
  );
  let platform: Platform;
  try {
    platform = await createPlatform({
      config,
      relaxedDurability: true,
      serveApp: options.serveApp ?? false,
      runtimes: options.runtimes,
      fleet: options.fleet,
    });
  } catch (error) {
    await http.close();
    if (databaseUrl && schema && !options.schema) await dropSchema(databaseUrl, schema).catch(() => {});
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  http.use(honoHandler(platform.app));

  return {
    url,
    authKey: platform.publishableKey,
    platform,
    async close() {
      await http.close();
      await platform.close();
      if (databaseUrl && schema && !options.schema) await dropSchema(databaseUrl, schema);
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
