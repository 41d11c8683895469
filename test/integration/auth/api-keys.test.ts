import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysFile, serviceRoleKey } from '../../../reference-app/server/auth';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { freePort } from '../../bench/serverLaunch';
import { buildServer, SERVER_BUNDLE, serverBuildIsStale } from '../../../scripts/build-server.mjs';

// The auth API's keys in reach (reference-app/server/README.md, "Auth keys"): ANON_KEY and
// SERVICE_ROLE_KEY from the environment replace the stored keys, and `npm run keys` prints the
// keys of a PGlite server while it runs (it cannot open the database the server holds), and
// of a PostgreSQL one. The PGlite cases skip when the suite runs on DATABASE_URL.

const databaseUrl = process.env.DATABASE_URL;

async function call(url: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${url}/auth/v1${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `npm run keys` as a developer runs it, with only the variables given (and PATH, HOME). */
function npmRunKeys(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'keys'],
      { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error.code as number | undefined) ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The `NAME=value` lines of the command's output. */
const assignments = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split('\n')
      .flatMap((line) => (/^([A-Z_]+)=(.+)$/.exec(line) ?? []).slice(1, 2).map((name) => [name, line.slice(name.length + 1)])),
  );

describe('ANON_KEY and SERVICE_ROLE_KEY from the environment', () => {
  const anon = `pk_env_${randomBytes(12).toString('hex')}`;
  const service = `sk_env_${randomBytes(24).toString('base64url')}`;
  let server: PlatformTestServer;
  beforeAll(async () => {
    server = await startPlatformServer({ env: { ANON_KEY: anon, SERVICE_ROLE_KEY: service } });
  }, 60_000);
  afterAll(() => server?.close());

  it('are the keys the auth API accepts, and the stored ones are refused', async () => {
    expect(server.authKey).toBe(anon);
    expect((await call(server.url, '/admin/users', { apikey: anon, authorization: `Bearer ${service}` })).status).toBe(200);
    expect((await call(server.url, '/settings', { apikey: service })).status).toBe(200);

    const stored = await serviceRoleKey(server.platform.database.db);
    expect(stored).not.toBe(service);
    const refused = await call(server.url, '/admin/users', { apikey: anon, authorization: `Bearer ${stored}` });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('not_admin');
    expect((await call(server.url, '/settings', { apikey: stored })).status).toBe(401);
  });

  it('the site is configured with ANON_KEY', async () => {
    const config = (await (await fetch(`${server.url}/config.json`)).json()) as { authKey: string };
    expect(config.authKey).toBe(anon);
  });

  it.skipIf(databaseUrl)('the keys file beside PGlite never holds a service-role key from the environment', () => {
    const file = keysFile(server.platform.config.dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      anon_key: anon,
      anon_key_from: 'environment',
      service_role_key: null,
      service_role_key_from: 'environment',
    });
    expect(readFileSync(file, 'utf8')).not.toContain(service);
  });

  it.skipIf(databaseUrl)(
    "npm run keys says the service-role key is in the server's environment",
    async () => {
      const keys = await npmRunKeys({ DATA_DIR: server.platform.config.dataDir });
      expect(keys.code).toBe(0);
      expect(assignments(keys.stdout)).toEqual({ ANON_KEY: anon });
      expect(keys.stdout).toContain('set by ANON_KEY');
      expect(keys.stdout).toContain(
        '# SERVICE_ROLE_KEY: the running server has it from its environment, which is never written to disk; set it here too to print it.',
      );
      // With the variable set, as beside the server, the command prints it.
      const withEnv = await npmRunKeys({ DATA_DIR: server.platform.config.dataDir, SERVICE_ROLE_KEY: service });
      expect(assignments(withEnv.stdout)).toEqual({ ANON_KEY: anon, SERVICE_ROLE_KEY: service });
    },
    120_000,
  );
});

describe.skipIf(databaseUrl)('npm run keys with PGlite, while the server runs', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let output = '';
  let url: string;
  beforeAll(async () => {
    // A migrated, seeded PGlite directory from the test template, without the keys file, as
    // a database from before `npm run keys` is.
    dataDir = mkdtempSync(path.join(tmpdir(), 'lime-keys-'));
    await (await startPlatformServer({ dataDir })).close();
    rmSync(keysFile(dataDir));
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says what to do when the server has not written the keys yet', async () => {
    const before = await npmRunKeys({ DATA_DIR: dataDir });
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(
      `npm run keys: ${keysFile(dataDir)} is missing: the server writes it at start. Restart the server once`,
    );
    const empty = path.join(dataDir, 'nothing-here');
    const none = await npmRunKeys({ DATA_DIR: empty });
    expect(none.stderr).toContain(
      `npm run keys: No database in ${empty} yet: start the server once (npm run dev or npm start) and it makes the keys.`,
    );
    expect(existsSync(empty)).toBe(false);
  }, 120_000);

  it('prints keys that work against the running server, which logs where to find them', async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'reference-app/server/main.ts'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PLATFORM_REGISTRY: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    for (let i = 0; i < 1200 && !/auth keys:/.test(output); i++) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const keys = await npmRunKeys({ DATA_DIR: dataDir, PORT: String(port) });
    expect(keys.stderr).toBe('');
    expect(keys.code).toBe(0);
    const { ANON_KEY: anon, SERVICE_ROLE_KEY: service } = assignments(keys.stdout);
    expect(anon).toMatch(/^pk_lime_/);
    expect(service).toMatch(/^sk_lime_/);
    expect(keys.stdout).toContain(`# The auth API's keys of http://localhost:${port}/auth/v1.`);

    const admin = await call(url, '/admin/users', { apikey: anon!, authorization: `Bearer ${service}` });
    expect(admin.status).toBe(200);
    expect((admin.body.users as unknown[]).length).toBeGreaterThan(0);

    // Development: the publishable key and where the service-role key is, never the key itself.
    expect(output).toContain(`auth keys: publishable (anon) ${anon}; service-role: \`npm run keys\` prints it`);
    expect(output).not.toContain(service);

    // The container has no sources: the server build's keys.mjs prints the same.
    if (serverBuildIsStale()) await buildServer();
    const bundled = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [path.join(path.dirname(SERVER_BUNDLE), 'keys.mjs')],
        { env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port) } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(bundled).toBe(keys.stdout);
  }, 180_000);
});

describe.skipIf(!databaseUrl)('npm run keys with PostgreSQL', () => {
  it('reads the keys the servers share from the database', async () => {
    const server = await startPlatformServer({ databaseUrl });
    try {
      const schema = server.platform.config.databaseSchema!;
      const keys = await npmRunKeys({ DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema });
      expect(keys.stderr).toBe('');
      expect(assignments(keys.stdout)).toEqual({ ANON_KEY: server.authKey, SERVICE_ROLE_KEY: server.platform.apiKeys.serviceRole });
      expect(existsSync(keysFile(server.platform.config.dataDir))).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);
});
