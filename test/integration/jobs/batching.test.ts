import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { JobEvents } from '../../../reference-app/server/jobs';
// reaches inside: the queue's batched finish statement driven directly (docs/jobs.md)
import { finishJobs } from '../../../reference-app/server/jobs/finish';
// reaches inside: the queue's batched claim statement driven directly (docs/jobs.md)
import { claimJobs } from '../../../reference-app/server/jobs/sql/claimJobs';
// reaches inside: the values the batched finish statement takes
import type { FinishValues } from '../../../reference-app/server/jobs/sql/finishJobs';
import { IO_RUNTIMES } from '../../../reference-app/server/hosting';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { PUBLISHER_ID, rawApi, subscribe } from '../helpers';
import { runner, testRuntime, TEXT2IMG } from './fixtures';

// The batched statements of the queue (docs/jobs.md: speed), against a real platform server:
// parallel creates of one user go in shared statements yet answer exactly as lone creates do,
// and one statement that ends several jobs charges each in turn against what the balance still
// holds, pays the publisher from what was collected and keeps every counter right.

const servers: PlatformTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(env: Record<string, string> = {}) {
  const server = await startPlatformServer({ runtimes: () => testRuntime, env });
  servers.push(server);
  return server;
}

const sum = (rows: Array<{ amount: unknown }>) => rows.reduce((total, row) => total + Number(row.amount), 0);

describe('batched creates', () => {
  it('parallel creates with one Idempotency-Key make one job; the others replay it', async () => {
    const server = await start({ JOB_WORKER_SLOTS: '0' });
    const { token } = await runner(server, 'same-key');
    const body = { service_id: TEXT2IMG, input: { prompt: 'sleep:10' } };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => rawApi(server, 'POST', '/v1/jobs', { token, body, headers: { 'Idempotency-Key': 'one-key' } })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(19);
    expect(new Set(answers.map((a) => a.json.job_id)).size).toBe(1);
    const list = await rawApi(server, 'GET', '/v1/jobs', { token });
    expect(list.json.jobs).toHaveLength(1);
  }, 60_000);

  it('parallel creates with their own keys are all queued, each with its own hold', async () => {
    const server = await start({ JOB_WORKER_SLOTS: '0' });
    const { token } = await runner(server, 'many');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        rawApi(server, 'POST', '/v1/jobs', {
          token,
          body: { service_id: TEXT2IMG, input: { prompt: `job ${i}` } },
          headers: { 'Idempotency-Key': `key-${i}` },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(201));
    // Each answer is its own create's job.
    expect(answers.map((a) => (a.json.input as { prompt: string }).prompt)).toEqual(Array.from({ length: 30 }, (_, i) => `job ${i}`));
    // Each answer knows its place in the queue (counted by the insert itself), the same place a
    // read of the job reports; together they are exactly the places 0..29.
    const positions = answers.map((a) => (a.json.queue as { position: number }).position);
    expect([...positions].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    for (const [i, answer] of answers.entries()) {
      const read = await rawApi(server, 'GET', `/v1/jobs/${String(answer.json.job_id)}`, { token });
      expect((read.json.queue as { position: number }).position).toBe(positions[i]);
    }
    const holds = (await rawApi(server, 'GET', '/v1/jobs/holds', { token })).json;
    expect(holds.holds).toHaveLength(30);
    const counted = await sql<{
      queued: number;
    }>`SELECT queued FROM job_users WHERE user_id = (SELECT user_id FROM jobs WHERE id = ${String(answers[0]!.json.job_id)}::uuid)`.execute(
      server.platform.database.db,
    );
    expect(Number(counted.rows[0]!.queued)).toBe(30);
  }, 60_000);
});

describe('batched finishes', () => {
  it('charges the jobs of one user in turn against the balance left, in one statement', async () => {
    const server = await start({ JOB_WORKER_SLOTS: '0' });
    const db = server.platform.database.db;
    await db.updateTable('models').set({ created_by: PUBLISHER_ID, is_public: true }).where('id', '=', TEXT2IMG).execute();
    const consumer = await runner(server, 'batch-consumer');
    // The pro plan runs 8 at once, so one claim takes three jobs of this user.
    await subscribe(db, consumer.userId, 'pro');
    for (let i = 0; i < 4; i++) {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: consumer.token,
        body: { service_id: TEXT2IMG, input: { prompt: `b${i}` } },
      });
      expect(created.status).toBe(201);
    }
    const events = new JobEvents(undefined);
    const claimed = await claimJobs(db, events, {
      workerId: 'batch-test',
      leaseSeconds: 30,
      limits: { local: 3, io: 0 },
      ioRuntimes: IO_RUNTIMES,
      maxRunningPerService: 8,
      maxRunningPerPublisher: 16,
    });
    expect(claimed).toHaveLength(3);
    // The balance pays one and a half runs of one credit.
    const balance = sum(await db.selectFrom('credit_ledger').select('amount').where('user_id', '=', consumer.userId).execute());
    await db
      .insertInto('credit_ledger')
      .values({ user_id: consumer.userId, amount: 1.5 - balance, kind: 'adjustment', description: 'test: 1.5 credits' })
      .execute();
    const runsBefore = Number(
      (await db.selectFrom('models').select('n_usages').where('id', '=', TEXT2IMG).executeTakeFirstOrThrow()).n_usages,
    );
    const now = new Date();
    const end = (job: (typeof claimed)[number]): FinishValues => ({
      job,
      status: 'FINISHED',
      resultJson: JSON.stringify({ echo: job.id }),
      resultBytes: 10,
      error: null,
      message: null,
      finishedAt: now,
      expiresAt: new Date(now.getTime() + 3600_000),
      gpuSeconds: 1,
      costCredits: 1,
      counted: true,
      month: '2026-11',
      usageDescription: `test run ${job.id}`,
    });
    const notOurs = { ...end(claimed[0]!), job: { ...claimed[0]!, id: '00000000-0000-4000-8000-000000000000' } };
    const rows = await finishJobs(db, events, 'batch-test', [...claimed.map(end), notOurs]);

    expect(rows.slice(0, 3).map((row) => row?.status)).toEqual(['FINISHED', 'FINISHED', 'FINISHED']);
    expect(rows[3]).toBeUndefined();
    const stored = await db
      .selectFrom('jobs')
      .select(['id', 'result'])
      .where(
        'id',
        'in',
        claimed.map((job) => job.id),
      )
      .execute();
    expect(claimed.map((job) => stored.find((row) => row.id === job.id)?.result)).toEqual(claimed.map((job) => ({ echo: job.id })));
    const usage = await db
      .selectFrom('credit_ledger')
      .select(['reference', 'amount'])
      .where('user_id', '=', consumer.userId)
      .where('kind', '=', 'usage')
      .execute();
    const charged = new Map(usage.map((u) => [u.reference, Number(u.amount)]));
    // In the order given: the first pays 1, the second the 0.5 left, the third nothing (no entry).
    expect(claimed.map((job) => charged.get(`job:${job.id}`))).toEqual([-1, -0.5, undefined]);
    expect(sum(await db.selectFrom('credit_ledger').select('amount').where('user_id', '=', consumer.userId).execute())).toBeCloseTo(0, 4);
    const earnings = await db.selectFrom('credit_ledger').select(['reference', 'amount']).where('kind', '=', 'earning').execute();
    const earned = new Map(earnings.map((e) => [e.reference, Number(e.amount)]));
    expect(claimed.map((job) => earned.get(`job:${job.id}:earning`))).toEqual([0.3, 0.15, undefined]);
    // Every ended run counts once, and the owner runs nothing any more.
    const runsAfter = Number(
      (await db.selectFrom('models').select('n_usages').where('id', '=', TEXT2IMG).executeTakeFirstOrThrow()).n_usages,
    );
    expect(runsAfter - runsBefore).toBe(3);
    const calls = await db
      .selectFrom('api_usage')
      .select('calls')
      .where('user_id', '=', consumer.userId)
      .where('month', '=', '2026-11')
      .executeTakeFirst();
    expect(Number(calls?.calls)).toBe(3);
    const counts = await db
      .selectFrom('job_users')
      .select(['running', 'queued'])
      .where('user_id', '=', consumer.userId)
      .executeTakeFirstOrThrow();
    expect({ running: Number(counts.running), queued: Number(counts.queued) }).toEqual({ running: 0, queued: 1 });
  }, 60_000);
});

describe('one claim for both slot pools', () => {
  it('takes up to each pool its free slots, oldest first, and nothing for a full pool', async () => {
    const server = await start({ JOB_WORKER_SLOTS: '0' });
    const db = server.platform.database.db;
    const consumer = await runner(server, 'two-pools');
    await subscribe(db, consumer.userId, 'enterprise');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: consumer.token,
        body: { service_id: TEXT2IMG, input: { prompt: `p${i}` } },
      });
      ids.push(String(created.json.job_id));
    }
    // Jobs 1, 3 and 5 belong to a network-bound runtime (the I/O pool), the others to a local one.
    await db.updateTable('jobs').set({ runtime: 'http' }).where('id', 'in', [ids[1]!, ids[3]!, ids[5]!]).execute();
    const events = new JobEvents(undefined);
    const claim = (limits: { local: number; io: number }) =>
      claimJobs(db, events, {
        workerId: 'pools',
        leaseSeconds: 30,
        limits,
        ioRuntimes: IO_RUNTIMES,
        maxRunningPerService: 8,
        maxRunningPerPublisher: 16,
      });

    const first = await claim({ local: 1, io: 2 });
    expect(first.map((job) => job.id).sort()).toEqual([ids[0], ids[1], ids[3]].sort());
    // The I/O pool is full: only local jobs, however many I/O jobs wait in front of them.
    const second = await claim({ local: 5, io: 0 });
    expect(second.map((job) => job.id).sort()).toEqual([ids[2], ids[4]].sort());
    const third = await claim({ local: 5, io: 5 });
    expect(third.map((job) => job.id)).toEqual([ids[5]]);

    // A claim scope (a runner's deployments, registry.claimScope()) holds back the scoped runtime's
    // jobs of other services, and only those.
    const scoped: string[] = [];
    for (const prompt of ['container', 'local']) {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: consumer.token,
        body: { service_id: TEXT2IMG, input: { prompt } },
      });
      scoped.push(String(created.json.job_id));
    }
    await db.updateTable('jobs').set({ runtime: 'container' }).where('id', '=', scoped[0]!).execute();
    const claimIn = (services: string[]) =>
      claimJobs(db, events, {
        workerId: 'pools',
        leaseSeconds: 30,
        limits: { local: 5, io: 5 },
        ioRuntimes: IO_RUNTIMES,
        maxRunningPerService: 16,
        maxRunningPerPublisher: 16,
        scope: { runtimes: ['container'], services },
      });
    expect((await claimIn(['lime-other'])).map((job) => job.id)).toEqual([scoped[1]]);
    expect((await claimIn([TEXT2IMG])).map((job) => job.id)).toEqual([scoped[0]]);
  }, 60_000);
});
