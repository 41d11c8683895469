import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_BUNDLE, serverBuildIsStale } from '../../scripts/build-server.mjs';
import { startPlatformServer } from '../../reference-app/server/testing';
import { freePort } from '../bench/serverLaunch';

// The production server as operators run it (docs/deploy.md): `node dist/server/main.mjs`,
// WORKERS, and a SIGTERM that lets requests in flight finish. With DATABASE_URL, also two
// workers on one PostgreSQL seeing each other's catalogue writes.

const databaseUrl = process.env.DATABASE_URL;

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function run(env: Record<string, string>, port = 0): Running {
  let output = '';
  const child = spawn(process.execPath, [SERVER_BUNDLE], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

async function started(server: Running): Promise<void> {
  for (let i = 0; i < 1200 && !/is running at/.test(server.output()); i++) {
    if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(server.output()).toMatch(/is running at/);
}

/** A GET on a fresh connection (so cluster's round-robin spreads them over the workers). */
async function getText(url: string): Promise<string> {
  const response = await fetch(url, { headers: { Connection: 'close' } });
  return response.text();
}

beforeAll(async () => {
  if (serverBuildIsStale()) await buildServer();
}, 120_000);

describe('WORKERS', () => {
  it.each([
    ['2', /WORKERS=2 needs DATABASE_URL: the default database, PGlite, lives inside one process/],
    ['zero', /WORKERS must be a whole number ≥ 1, or auto, got "zero"/],
    ['0', /WORKERS must be a whole number ≥ 1/],
  ])('WORKERS=%s is refused with a clear message before anything starts', async (workers, message) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-workers-'));
    try {
      const server = run({ WORKERS: workers, DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(await server.exited).toBe(1);
      expect(server.output()).toMatch(message);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('SIGTERM', () => {
  let dataDir: string;
  beforeAll(async () => {
    // A migrated, seeded PGlite directory from the test template (fast), then handed over.
    dataDir = mkdtempSync(path.join(tmpdir(), 'lime-sigterm-'));
    await (await startPlatformServer({ dataDir })).close();
  }, 120_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops accepting, finishes the request in flight, then exits 0', async () => {
    const port = await freePort();
    const server = run({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
    try {
      await started(server);
      const { authKey } = (await (await fetch(`${server.url}/config.json`)).json()) as { authKey: string };
      const body = JSON.stringify({ email: 'demo@limelight.dev', password: 'wrong password' });
      // A sign-in whose body is still arriving when the signal comes.
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(`${server.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: authKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 500);
        }, 200);
      });
      await new Promise((r) => setTimeout(r, 450));
      // Closed for new connections while the old one is served.
      await expect(fetch(`${server.url}/health`)).rejects.toThrow();
      const { status, text } = await answer;
      expect(status).toBe(400);
      expect(JSON.parse(text)).toMatchObject({ error_code: 'invalid_credentials' });
      expect(await server.exited).toBe(0);
      expect(server.output()).toMatch(/SIGTERM: shutting down after the requests in flight/);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 120_000);
});

describe.skipIf(!databaseUrl)('two workers on one PostgreSQL (DATABASE_URL)', () => {
  it("share one port, see each other's catalogue writes at once, and stop together on SIGTERM", async () => {
    const port = await freePort();
    const schema = `lime_workers_${randomBytes(5).toString('hex')}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-workers-'));
    const server = run(
      {
        WORKERS: '2',
        DATABASE_URL: databaseUrl!,
        DATABASE_SCHEMA: schema,
        DATA_DIR: dataDir,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      port,
    );
    const admin = new pg.Client({ connectionString: databaseUrl, options: `-c search_path="${schema}"` });
    try {
      await started(server);
      expect(server.output()).toMatch(/2 worker processes/);
      const url = `${server.url}/v1/model_management/model_categories`;
      // Warm both workers' caches.
      for (let i = 0; i < 6; i++) expect(await getText(url)).not.toContain('Renamed by another process');
      await admin.connect();
      await admin.query(
        `UPDATE model_categories SET title = 'Renamed by another process' WHERE sort_idx = (SELECT min(sort_idx) FROM model_categories)`,
      );
      await expect.poll(() => getText(url), { timeout: 5_000 }).toContain('Renamed by another process');
      for (let i = 0; i < 6; i++) expect(await getText(url)).toContain('Renamed by another process');
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await admin.end().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the production bundle', () => {
  it('runs the local demo runtimes, assets included (a text-to-image job finishes with a real PNG)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-bundle-'));
    try {
      await (await startPlatformServer({ dataDir })).close();
      const port = await freePort();
      const server = run({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, port);
      try {
        await started(server);
        const { authKey } = (await (await fetch(`${server.url}/config.json`)).json()) as { authKey: string };
        const signIn = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: authKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'demo@limelight.dev', password: 'limelight-demo' }),
        });
        const { access_token } = (await signIn.json()) as { access_token: string };
        const created = await fetch(`${server.url}/v1/jobs`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json', Prefer: 'wait=60' },
          body: JSON.stringify({
            service_id: 'lime-diffusion-xl',
            endpoint: '/generate',
            input: { prompt: 'a ripe lime', width: 256, height: 256 },
          }),
        });
        const job = (await created.json()) as { status: string; error: unknown; result: { image: { url: string } } };
        expect({ status: job.status, error: job.error }).toEqual({ status: 'FINISHED', error: null });
        const image = new Uint8Array(await (await fetch(job.result.image.url)).arrayBuffer());
        expect([...image.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
