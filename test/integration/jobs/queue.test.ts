import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api';
import type { Runtime } from '../../../reference-app/server/runtimes';
import { dropSchema } from '../../../reference-app/server/db';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
// reaches inside: the claim statement run by hand to see which statements it prepares
import { claimJobs } from '../../../reference-app/server/jobs/sql/claimJobs';
// reaches inside: the words the abandoned-job recovery writes into a job
import { REQUEUED_MESSAGE, WORKER_LOST_ERROR } from '../../../reference-app/server/jobs/sql/recoverAbandoned';
import { JobEvents } from '../../../reference-app/server/jobs';
import { IO_RUNTIMES } from '../../../reference-app/server/hosting';
import { sql } from 'kysely';
import { rawApi, type Target } from '../helpers';
import { runCounts, runner, testRuntimes, TEXT2IMG } from './fixtures';
import { testPostgres, type TestPostgres } from './postgres';

// The durable queue (docs/jobs.md: queue): queued jobs survive a restart, a job whose worker
// stopped is retried once and then FAILED, and two servers on one PostgreSQL share 200 jobs
// without running any twice.

const FINAL = ['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'];

async function jobOf(target: Target, token: string, id: string): Promise<Job> {
  return (await rawApi(target, 'GET', `/v1/jobs/${id}`, { token })).json as unknown as Job;
}

async function until(target: Target, token: string, id: string, accept: (job: Job) => boolean, tries = 300): Promise<Job> {
  for (let i = 0; i < tries; i++) {
    const job = await jobOf(target, token, id);
    if (accept(job)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never reached the expected state`);
}

describe('restart (PGlite)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-jobs-restart-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps queued jobs across a restart and retries an interrupted one once, then fails it as worker_lost', async () => {
    // 1. No workers: the jobs stay QUEUED when the server stops.
    let server: PlatformTestServer = await startPlatformServer({ dataDir, runtimes: testRuntimes, env: { JOB_WORKER_SLOTS: '0' } });
    const port = Number(new URL(server.url).port);
    const { token } = await runner(server);
    const queued = (await rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id: TEXT2IMG, input: { prompt: 'survivor' } } }))
      .json;
    const doomed = (await rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id: TEXT2IMG, input: { prompt: 'sleep:60000' } } }))
      .json;
    expect(queued.status).toBe('QUEUED');
    await server.close();

    // 2. Restart with workers: the queued job runs; the sleeper is stopped mid-run (attempt 1).
    server = await startPlatformServer({ dataDir, port, runtimes: testRuntimes });
    expect(await until(server, token, String(queued.job_id), (j) => j.status === 'FINISHED')).toMatchObject({
      result: { echo: 'survivor' },
    });
    await until(server, token, String(doomed.job_id), (j) => j.status === 'PROCESSING');
    await server.close();

    // 3. After the restart it is requeued once and runs again (attempt 2)…
    server = await startPlatformServer({ dataDir, port, runtimes: testRuntimes });
    const retried = await until(server, token, String(doomed.job_id), (j) => j.status === 'PROCESSING' || FINAL.includes(j.status));
    expect(retried.status).toBe('PROCESSING');
    expect(runCounts.get(String(doomed.job_id))).toBe(2);
    await server.close();

    // 4. …and when that worker stops too, the job FAILS with a clear error and no charge.
    server = await startPlatformServer({ dataDir, port, runtimes: testRuntimes });
    try {
      const failed = await until(server, token, String(doomed.job_id), (j) => FINAL.includes(j.status));
      expect(failed).toMatchObject({ status: 'FAILED', error: WORKER_LOST_ERROR, metrics: { cost_credits: 0 } });
      expect(runCounts.get(String(doomed.job_id))).toBe(2);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('says so in the message while a job waits for its retry', () => {
    expect(REQUEUED_MESSAGE).toBe('Requeued: the worker running this job stopped; retrying once');
  });
});

describe('two servers on one PostgreSQL', () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await testPostgres();
  }, 60_000);
  afterAll(async () => {
    if ('stop' in pg) await pg.stop();
  });

  it('claim 200 jobs between them and run none twice', async (ctx) => {
    if ('skip' in pg) {
      console.warn(`jobs-queue: PostgreSQL part skipped: ${pg.skip}`);
      ctx.skip();
      return;
    }
    const ran = new Map<string, string[]>();
    const counting = (server: string): Runtime => ({
      name: 'test',
      async run(input, runCtx) {
        ran.set(runCtx.jobId, [...(ran.get(runCtx.jobId) ?? []), server]);
        await new Promise((r) => setTimeout(r, 5));
        return { echo: input.prompt };
      },
    });
    const schema = `lime_jobs_${randomBytes(5).toString('hex')}`;
    const env = { LIMELIGHT_SECRET_KEY: randomBytes(32).toString('hex'), JOB_WORKER_SLOTS: '4', JOB_POLL_MS: '50' };
    const a = await startPlatformServer({ databaseUrl: pg.url, schema, env, runtimes: () => counting('a') });
    const b = await startPlatformServer({ databaseUrl: pg.url, schema, env, runtimes: () => counting('b') });
    try {
      // Jobs enter through server a; both servers' workers take them. Four users, so the plan's concurrency (2 each on the free plan) leaves room for both.
      const users = await Promise.all([1, 2, 3, 4].map((i) => runner(a, `pg-${i}`)));
      const ids: string[] = [];
      for (let round = 0; round < 50; round++) {
        const created = await Promise.all(
          users.map((u) =>
            rawApi(a, 'POST', '/v1/jobs', { token: u.token, body: { service_id: TEXT2IMG, input: { prompt: `r${round}` } } }),
          ),
        );
        for (const c of created) {
          expect(c.status).toBe(201);
          ids.push(String(c.json.job_id));
        }
      }
      expect(ids.length).toBe(200);
      const db = a.platform.database.db;
      for (let i = 0; i < 600; i++) {
        const open = await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['QUEUED', 'PROCESSING'])
          .executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // This test's jobs and charges only: the seed has finished runs of its own (seed/runs.ts).
      const rows = await db.selectFrom('jobs').select(['id', 'status', 'attempts']).where('id', 'in', ids).execute();
      expect(rows.filter((r) => r.status === 'FINISHED').length).toBe(200);
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
      expect(ids.every((id) => ran.get(id)?.length === 1)).toBe(true);
      const byServer = [...ran.values()].flat();
      expect(byServer.filter((s) => s === 'a').length).toBeGreaterThan(0);
      expect(byServer.filter((s) => s === 'b').length).toBeGreaterThan(0);
      // One charge per job: the ledger's usage entries are unique per job reference.
      const charges = await db
        .selectFrom('credit_ledger')
        .select('reference')
        .where('kind', '=', 'usage')
        .where(
          'reference',
          'in',
          ids.map((id) => `job:${id}`),
        )
        .execute();
      expect(charges.length).toBe(200);
      expect(new Set(charges.map((c) => c.reference)).size).toBe(200);
    } finally {
      await b.close();
      await a.close();
      await dropSchema(pg.url, schema);
    }
  }, 180_000);

  it('send the claim as a named statement, prepared once per connection (unnamed with DATABASE_PREPARED_STATEMENTS=false)', async (ctx) => {
    if ('skip' in pg) {
      console.warn(`jobs-queue: PostgreSQL part skipped: ${pg.skip}`);
      ctx.skip();
      return;
    }
    const { url } = pg;
    const namedAfterClaims = async (env: Record<string, string>) => {
      const schema = `lime_prep_${randomBytes(5).toString('hex')}`;
      const server = await startPlatformServer({ databaseUrl: url, schema, env: { JOB_WORKER_SLOTS: '0', ...env } });
      try {
        return await server.platform.database.db.connection().execute(async (connection) => {
          const options = {
            workerId: 'test',
            leaseSeconds: 30,
            limits: { local: 1, io: 0 },
            ioRuntimes: IO_RUNTIMES,
            maxRunningPerService: 8,
            maxRunningPerPublisher: 16,
          };
          for (let i = 0; i < 3; i++) await claimJobs(connection, new JobEvents(schema), options);
          const named = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(connection);
          return named.rows.map((row) => row.name);
        });
      } finally {
        await server.close();
        await dropSchema(url, schema);
      }
    };
    expect(await namedAfterClaims({})).toEqual([expect.stringMatching(/^claim_jobs_[0-9a-f]{12}$/)]);
    expect(await namedAfterClaims({ DATABASE_PREPARED_STATEMENTS: 'false' })).toEqual([]);
  }, 120_000);
});
