// The production image (docs/deploy.md, "Container"): the Dockerfile built with Podman on a Node
// base image made from this machine's own node (scripts/node-image.mjs, no registry needed),
// then started exactly as it ships, from the runtime stage's files alone:
//   - alone, on PGlite in its /data volume, with NODE_ENV=production's required settings;
//   - as compose.yaml's `app` service: its environment and replica count read from the file, on a
//     real PostgreSQL (Podman has no compose here and no postgres image can be pulled, so the
//     `db` service is a throw-away Debian PostgreSQL on the host, reached by the service's own
//     host name `db`; the replicas share the file's named volume, made a Podman volume).
// Each answers /health, serves the site and runs a job through the API with a fresh account.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { podmanEnv, podmanUnavailableReason } from '../../scripts/engine.mjs';
import { buildNodeImage } from '../../scripts/node-image.mjs';
import { projectRoot } from '../../scripts/source-aliases.mjs';
import { freePort } from '../bench/serverLaunch';
import { testPostgres } from '../integration/jobs/postgres';
import { composeService } from './compose';
import { snapshotNpmCache } from './npmCache';
import { buildStageNeeded, prebuiltStage } from './prebuiltStage';

const unavailable = podmanUnavailableReason();
const skip = unavailable && `${unavailable}: the production image test builds and runs the Dockerfile with Podman`;
const IMAGE = `localhost/limelight-image-test:${process.pid}`;
const started: string[] = [];
const createdVolumes: string[] = [];

function podman(args: string[]): string {
  const result = spawnSync('podman', args, { cwd: projectRoot, env: podmanEnv(), encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`podman ${args.slice(0, 3).join(' ')} … exited ${result.status}: ${result.stderr.slice(-3000)}`);
  return result.stdout.trim();
}

/** Starts a container of the image; removed (with its anonymous /data volume) after the tests. */
function run(name: string, options: string[], env: Record<string, string>): string {
  const container = `limelight-image-test-${process.pid}-${name}`;
  started.push(container);
  podman(['run', '-d', '--name', container, ...options, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), IMAGE]);
  return container;
}

async function answering(url: string, container: string, timeoutMs = 90_000): Promise<number> {
  const since = Date.now();
  for (;;) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return Date.now() - since;
    if (Date.now() - since > timeoutMs) throw new Error(`${container} did not answer /health: ${podmanLogs(container)}`);
    const state = podman(['inspect', '-f', '{{.State.Status}}', container]);
    if (state === 'exited') throw new Error(`${container} exited: ${podmanLogs(container)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const podmanLogs = (container: string) =>
  spawnSync('podman', ['logs', '--tail', '40', container], { env: podmanEnv(), encoding: 'utf8' }).stderr;

/** A new account (MAILER_AUTOCONFIRM), credits from the sandbox provider, a bearer token. */
async function freshAccount(url: string): Promise<string> {
  const { authKey } = (await (await fetch(`${url}/config.json`)).json()) as { authKey: string };
  const signUp = await fetch(`${url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `image-${randomBytes(4).toString('hex')}@example.com`, password: 'image-test-password' }),
  });
  expect(signUp.status).toBe(200);
  const { access_token: token } = (await signUp.json()) as { access_token: string };
  const bought = await fetch(`${url}/v1/payment/buy_credit`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ quantity: 100 }),
  });
  expect(bought.status).toBe(200);
  return token;
}

/** Runs the demo text-to-image service to the end; the result is a real PNG. */
async function runJob(url: string, token: string): Promise<string> {
  const created = await fetch(`${url}/v1/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Prefer: 'wait=60' },
    body: JSON.stringify({
      service_id: 'lime-diffusion-xl',
      endpoint: '/generate',
      input: { prompt: 'a ripe lime', width: 256, height: 256 },
    }),
  });
  const job = (await created.json()) as { job_id: string; status: string; error: unknown; result: { image: { url: string } } };
  expect({ status: job.status, error: job.error }).toEqual({ status: 'FINISHED', error: null });
  // The file's URL names PUBLIC_URL (compose's is the proxy's); the same path on this server.
  const { pathname, search } = new URL(job.result.image.url);
  const image = new Uint8Array(await (await fetch(new URL(pathname + search, url))).arrayBuffer());
  expect(new TextDecoder().decode(image.slice(1, 4))).toBe('PNG');
  return job.job_id;
}

async function servesTheSite(url: string) {
  const home = await fetch(`${url}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toMatch(/<div id="root">/);
}

/** What NODE_ENV=production requires (docs/deploy.md); mail goes nowhere, so sign-ups confirm themselves. */
const PRODUCTION_SETTINGS = {
  LIMELIGHT_SECRET_KEY: randomBytes(32).toString('hex'),
  SMTP_URL: 'smtp://127.0.0.1:9',
  PAYMENT_PROVIDER: 'sandbox',
  MAILER_AUTOCONFIRM: 'true',
};

describe.skipIf(skip)('the production image', () => {
  beforeAll(() => {
    let since = Date.now();
    const base = buildNodeImage();
    console.log(`image: base ${base} ready in ${((Date.now() - since) / 1000).toFixed(1)} s`);
    since = Date.now();
    // A private snapshot of the host's npm cache (npmCache.ts), as an overlay: npm ci fetches only
    // what this machine lacks, and the npm installs running beside this build cannot change it.
    const npmCache = snapshotNpmCache();
    const cache = npmCache ? ['-v', `${npmCache}:/root/.npm:O`] : [];
    // The build stage's files from this run's `npm run build` where they are current (prebuiltStage.ts).
    const needed = buildStageNeeded();
    const prebuilt = needed ? undefined : prebuiltStage();
    const stage = prebuilt ? ['--build-context', `build=${prebuilt}`] : [];
    try {
      // npm ci opens more files at once than containers.conf's unset ulimits allow.
      podman([
        'build',
        '--ulimit',
        'nofile=8192:8192',
        ...cache,
        ...stage,
        '--build-arg',
        `NODE_IMAGE=${base}`,
        '-t',
        IMAGE,
        '-f',
        'Dockerfile',
        '.',
      ]);
    } finally {
      if (prebuilt) rmSync(prebuilt, { recursive: true, force: true });
      if (npmCache) rmSync(npmCache, { recursive: true, force: true });
    }
    const how = prebuilt ? "the build stage's files from this machine's dist/" : `the build stage built (${needed})`;
    console.log(`image: podman build in ${((Date.now() - since) / 1000).toFixed(1)} s, ${how}`);
  }, 1_200_000);

  afterAll(() => {
    for (const container of started) spawnSync('podman', ['rm', '-f', '-v', container], { env: podmanEnv() });
    for (const volume of new Set(createdVolumes)) spawnSync('podman', ['volume', 'rm', '-f', volume], { env: podmanEnv() });
    spawnSync('podman', ['rmi', '-f', IMAGE], { env: podmanEnv() });
  });

  it('alone, on PGlite in /data, answers /health, serves the site and runs a job', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const container = run('alone', ['-p', `127.0.0.1:${port}:3000`], { ...PRODUCTION_SETTINGS, PUBLIC_URL: url });
    console.log(`image: answered /health ${((await answering(url, container)) / 1000).toFixed(1)} s after podman run`);
    await servesTheSite(url);
    await runJob(url, await freshAccount(url));
  }, 180_000);

  it("as compose.yaml's app service: its replicas share one PostgreSQL", async () => {
    const database = await testPostgres();
    if ('skip' in database) throw new Error(database.skip);
    try {
      const compose = parse(readFileSync(path.join(projectRoot, 'compose.yaml'), 'utf8'));
      const { environment, replicas, options, volumes } = composeService(
        compose,
        'app',
        PRODUCTION_SETTINGS,
        `limelight-image-test-${process.pid}`,
      );
      createdVolumes.push(...volumes);
      // The compose file's database, user and password, on the throw-away server's port.
      const target = new URL(environment.DATABASE_URL);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`CREATE ROLE ${target.username} LOGIN PASSWORD '${target.password}'`);
      await admin.query(`CREATE DATABASE ${target.pathname.slice(1)} OWNER ${target.username}`);
      await admin.end();
      target.port = new URL(database.url).port;
      const urls: string[] = [];
      for (let replica = 1; replica <= replicas; replica++) {
        const port = await freePort();
        const url = `http://127.0.0.1:${port}`;
        // PUBLIC_URL stays the file's: every replica issues and accepts the same tokens.
        const env = { ...environment, DATABASE_URL: target.toString(), PORT: String(port) };
        const container = run(`compose-${replica}`, ['--network', 'host', '--add-host', `${target.hostname}:127.0.0.1`, ...options], env);
        console.log(
          `image: replica ${replica} answered /health ${((await answering(url, container)) / 1000).toFixed(1)} s after podman run`,
        );
        urls.push(url);
      }
      expect(urls.length).toBeGreaterThanOrEqual(2);
      await servesTheSite(urls[0]!);
      const token = await freshAccount(urls[0]!);
      const jobId = await runJob(urls[1]!, token);
      const seen = await fetch(`${urls[0]}/v1/jobs/${jobId}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(((await seen.json()) as { status: string }).status).toBe('FINISHED');
    } finally {
      await database.stop();
    }
  }, 300_000);
});
