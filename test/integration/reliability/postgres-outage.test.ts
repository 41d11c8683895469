import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../../reference-app/server/db';
import { rawApi } from '../helpers';
import { runner, untilFinal } from '../jobs/fixtures';
import { testPostgres, type TestPostgres } from '../jobs/postgres';
import { createJob, insertHttpService, recordLoad, slowService, spawnServer, type ServerProcess } from './fixtures';

// The database can go away (docs/deploy.md, "When the database goes away"): ONE server process,
// no supervisor, its PostgreSQL restarted under load (`pg_ctl restart -m fast`) and stopped for
// a few seconds. The process stays up, every request answers (its result, or 503 with
// Retry-After and a JSON detail), it serves again within 15 s, and every acknowledged job ends
// FINISHED, delivered once (a finish that fails meanwhile is retried while the lease is held).

let pg: TestPostgres;
let server: ServerProcess | undefined;
let service: Awaited<ReturnType<typeof slowService>>;
let dataDir: string;
const schema = `lime_outage_${randomBytes(5).toString('hex')}`;
let user: Awaited<ReturnType<typeof runner>>;
let serviceId: string;

beforeAll(async () => {
  pg = await testPostgres();
  if ('skip' in pg) return;
  dataDir = mkdtempSync(path.join(tmpdir(), 'lime-outage-'));
  service = await slowService(1_500);
  server = await spawnServer({ DATABASE_URL: pg.url, DATABASE_SCHEMA: schema, DATA_DIR: dataDir, JOB_LEASE_SECONDS: '10' });
  user = await runner(server, 'outage');
  serviceId = await insertHttpService(pg.url, schema, user.userId, service.url);
}, 180_000);

afterAll(async () => {
  if (!pg || 'skip' in pg) return;
  server?.child.kill('SIGKILL');
  await service?.close();
  await dropSchema(pg.url, schema).catch(() => {});
  await pg.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function skipWithoutPostgres(ctx: { skip(): void }) {
  if ('skip' in pg) {
    console.warn(`reliability: PostgreSQL tests skipped: ${pg.skip}`);
    ctx.skip();
  }
}

/**
 * Creates under load are paced (one per CREATE_PAUSE_MS per loop, at most LOAD_JOBS): enough
 * to have creates, runs and finishes in flight across the restart, few enough that the 1.5 s
 * service runs them all in seconds once it is over (unpaced, 200 jobs took the test to 3 min).
 */
const CREATE_PAUSE_MS = 250;
const LOAD_JOBS = 60;

/** Under load: paced job creates and unpaced reads by one signed-in user. */
function load(serverProcess: ServerProcess, token: string, created: string[]) {
  return recordLoad(6, async (i) => {
    if (i % 2 === 0 && created.length < LOAD_JOBS) {
      await new Promise((r) => setTimeout(r, CREATE_PAUSE_MS));
      const key = `load-${randomBytes(6).toString('hex')}`;
      const response = await fetch(`${serverProcess.url}/v1/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ service_id: serviceId, input: { prompt: key } }),
        signal: AbortSignal.timeout(20_000),
      });
      if (response.status === 201) created.push(String(((await response.clone().json()) as { job_id: string }).job_id));
      return { what: 'create', response };
    }
    const response = await fetch(`${serverProcess.url}/v1/jobs?limit=5`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(20_000),
    });
    return { what: 'list', response };
  });
}

/** Every answer is a success or a 503 saying when to come back, within the client's patience. */
function expectOnlySuccessOrRetry(answers: ReturnType<typeof recordLoad>['answers']) {
  const wrong = answers.filter((a) => !(a.status < 300 || (a.status === 503 && Number(a.retryAfter) >= 1)));
  expect(wrong.slice(0, 5)).toEqual([]);
  for (const a of answers.filter((x) => x.status === 503)) expect(a.detail).toMatchObject({ detail: expect.stringMatching(/database/i) });
  expect(Math.max(0, ...answers.map((a) => a.ms))).toBeLessThan(15_000);
}

/** Time until a read that needs the database succeeds again. */
async function untilServing(target: ServerProcess, token: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { status } = await rawApi(target, 'GET', '/v1/jobs?limit=1', { token }).catch(() => ({ status: 0 }));
    if (status === 200) return Date.now() - started;
    if (Date.now() - started > 15_000) throw new Error(`not serving 15 s after the database came back (last status ${status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('PostgreSQL goes away under one server process', () => {
  it('a restart under load: the process stays up, answers 503 + Retry-After or succeeds, and no acknowledged job is lost', async (ctx) => {
    skipWithoutPostgres(ctx);
    const target = server!;
    const before: string[] = [];
    for (let i = 0; i < 8; i++) before.push((await createJob(target, user.token, serviceId, `before-${i}`))!);
    const during: string[] = [];
    const traffic = load(target, user.token, during);
    await new Promise((r) => setTimeout(r, 1_000));
    const restartStarted = Date.now();
    if (!('skip' in pg)) pg.ctl!('restart');
    const restartMs = Date.now() - restartStarted;
    const recoverMs = await untilServing(target, user.token);
    await new Promise((r) => setTimeout(r, 2_000));
    await traffic.stop();
    expect(target.alive(), target.output().slice(-3000)).toBe(true);
    expect(traffic.failures).toEqual([]);
    expectOnlySuccessOrRetry(traffic.answers);
    const after: string[] = [];
    for (let i = 0; i < 4; i++) after.push((await createJob(target, user.token, serviceId, `after-${i}`))!);
    expect(after.every(Boolean)).toBe(true);

    const acknowledged = [...before, ...during, ...after];
    const ended = await Promise.all(acknowledged.map((id) => untilFinal(target, user.token, id, 2_400)));
    expect(ended.filter((job) => job.status !== 'FINISHED').map((job) => [job.job_id, job.status, job.error])).toEqual([]);
    const repeated = acknowledged.filter((id) => (service.deliveries.get(id) ?? 0) > 1).length;
    const refused = traffic.answers.filter((a) => a.status === 503).length;
    console.info(
      `reliability: restart ${restartMs} ms, serving again ${recoverMs} ms after; ${traffic.answers.length} answers (${refused} 503), ` +
        `${acknowledged.length} jobs acknowledged, all FINISHED, ${repeated} delivered twice`,
    );
  }, 240_000);

  it('readiness follows the database: /health/ready 503 while it is stopped, /health/live 200, ready again within 15 s of its start', async (ctx) => {
    skipWithoutPostgres(ctx);
    const target = server!;
    const status = async (path: string) => (await fetch(`${target.url}${path}`, { signal: AbortSignal.timeout(10_000) })).status;
    expect(await status('/health/ready')).toBe(200);
    if (!('skip' in pg)) pg.ctl!('stop');
    try {
      const ready = await fetch(`${target.url}/health/ready`, { signal: AbortSignal.timeout(10_000) });
      expect([ready.status, Number(ready.headers.get('retry-after')) >= 1]).toEqual([503, true]);
      expect(await status('/health/live')).toBe(200);
    } finally {
      if (!('skip' in pg)) pg.ctl!('start');
    }
    const started = Date.now();
    while ((await status('/health/ready').catch(() => 0)) !== 200) {
      expect(Date.now() - started).toBeLessThan(15_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(target.alive()).toBe(true);
    console.info(`reliability: ready again ${Date.now() - started} ms after PostgreSQL started`);
  }, 60_000);
});
