import { sql } from 'kysely';
import type { Job } from '../../../src/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi, subscribe } from '../helpers';
import { balanceMismatches, httpServiceOf, runner, testRuntime, TEXT2IMG, untilFinal } from './fixtures';

// A job started by its own create (docs/jobs.md, "Started by its create"): while nothing waits in
// the queue, the insert of a job this process's worker has a free slot for starts it in the same
// statement, without a claim. It must never pass over a waiting job, a plan's concurrency or a
// service's cap, and must leave the row and the per-user counts as a claim would.

let server: PlatformTestServer;
beforeAll(async () => {
  // Four local slots (the test runtime's pool) and a per-service cap of three.
  server = await startPlatformServer({
    runtimes: () => testRuntime,
    env: { JOB_WORKER_SLOTS: '4', JOB_MAX_RUNNING_PER_SERVICE: '3' },
  });
}, 120_000);
afterAll(() => server?.close());

const create = async (token: string, prompt: string) => {
  const answer = await rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id: TEXT2IMG, input: { prompt } } });
  expect(answer.status).toBe(201);
  return answer.json as unknown as Pick<Job, 'status' | 'queue' | 'started_at' | 'created_at'> & {
    job_id: string;
  };
};

/** Runs until cancelled (the test runtime honours its signal): no test depends on how long a create takes. */
const LONG = 'sleep:60000';
const cancel = async (token: string, jobId: string) => {
  const answer = await rawApi(server, 'POST', `/v1/jobs/${jobId}/cancel`, { token });
  expect(answer.json.status).toBe('CANCELLED');
};

const countsOf = async (userId: string) => {
  const { rows } = await sql<{
    queued: number;
    running: number;
  }>`SELECT queued, running FROM job_users WHERE user_id = ${userId}::uuid`.execute(server.platform.database.db);
  return { queued: Number(rows[0]?.queued ?? 0), running: Number(rows[0]?.running ?? 0) };
};

const rowOf = async (jobId: string) =>
  server.platform.database.db
    .selectFrom('jobs')
    .select(['status', 'attempts', 'worker_id', 'version', 'created_at', 'started_at', 'lease_until'])
    .where('id', '=', jobId)
    .executeTakeFirstOrThrow();

describe('a job started by its create', () => {
  it('starts at once on an empty queue, leased to this worker as a claim leaves it, and ends as any job does', async () => {
    const { token, userId } = await runner(server, 'started');
    const job = await create(token, 'sleep:5000');
    expect(job).toMatchObject({ status: 'PROCESSING', queue: null });
    expect(job.started_at).toBe(job.created_at);
    const row = await rowOf(job.job_id);
    expect(row).toMatchObject({ status: 'PROCESSING', attempts: 1, version: 2, worker_id: server.platform.jobs.worker.id });
    expect(new Date(row.lease_until!).getTime()).toBeGreaterThan(Date.now());
    expect(await countsOf(userId)).toEqual({ queued: 0, running: 1 });

    const done = await untilFinal(server, token, job.job_id);
    expect(done).toMatchObject({ status: 'FINISHED', result: { echo: 'sleep:5000' } });
    expect(done.metrics.queue_ms).toBe(0);
    expect(done.metrics.cost_credits).toBeGreaterThan(0);
    expect(await countsOf(userId)).toEqual({ queued: 0, running: 0 });
    expect((await balanceMismatches(server.platform.database.db)).wrong).toEqual([]);
  }, 60_000);

  it('keeps to the plan: a free plan (2 at once) starts two, queues the third, which runs when one ends', async () => {
    const { token, userId } = await runner(server, 'free-plan');
    const jobs = [await create(token, LONG), await create(token, LONG), await create(token, 'after')];
    expect(jobs.map((j) => j.status)).toEqual(['PROCESSING', 'PROCESSING', 'QUEUED']);
    expect(jobs[2]!.queue).toEqual({ position: 0 });
    expect(await countsOf(userId)).toEqual({ queued: 1, running: 2 });
    await cancel(token, jobs[0]!.job_id);
    expect(await untilFinal(server, token, jobs[2]!.job_id)).toMatchObject({ status: 'FINISHED', result: { echo: 'after' } });
    expect((await rowOf(jobs[2]!.job_id)).attempts).toBe(1);
    await cancel(token, jobs[1]!.job_id);
    expect(await countsOf(userId)).toEqual({ queued: 0, running: 0 });
  }, 60_000);

  it('never passes over a waiting job: with any job queued, a create queues behind it though slots are free', async () => {
    const waiting = await runner(server, 'waiting');
    const later = await runner(server, 'later');
    await subscribe(server.platform.database.db, later.userId, 'enterprise');
    // The free plan's third job waits for the plan, not for a slot: two of four slots stay free.
    const first = [await create(waiting.token, LONG), await create(waiting.token, LONG), await create(waiting.token, 'x')];
    expect(first.map((j) => j.status)).toEqual(['PROCESSING', 'PROCESSING', 'QUEUED']);
    const behind = await create(later.token, 'behind');
    expect(behind.status).toBe('QUEUED');
    // Claimed by the worker's next claim round (the waiting job is still held back by its plan).
    expect((await untilFinal(server, later.token, behind.job_id)).status).toBe('FINISHED');
    for (const job of first.slice(0, 2)) await cancel(waiting.token, job.job_id);
    expect((await untilFinal(server, waiting.token, first[2]!.job_id)).status).toBe('FINISHED');
  }, 60_000);

  it("keeps to the service's cap: with three of its jobs running, the next one queues", async () => {
    const { token, userId } = await runner(server, 'capped');
    await subscribe(server.platform.database.db, userId, 'enterprise');
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await create(token, i < 3 ? LONG : 'fourth'));
    expect(jobs.map((j) => j.status)).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING', 'QUEUED']);
    await cancel(token, jobs[0]!.job_id);
    expect((await untilFinal(server, token, jobs[3]!.job_id)).status).toBe('FINISHED');
    for (const job of jobs.slice(1, 3)) await cancel(token, job.job_id);
  }, 60_000);
  it('never starts more jobs than the worker has slots, however many creates arrive at once', async () => {
    const { token, userId } = await runner(server, 'many-at-once');
    await subscribe(server.platform.database.db, userId, 'enterprise');
    // Two services (each capped at three), six creates at once, four slots.
    const other = await httpServiceOf(server, userId, 'http://127.0.0.1:9');
    const answers = await Promise.all(
      [TEXT2IMG, TEXT2IMG, TEXT2IMG, other, other, other].map((service_id) =>
        rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id, input: { prompt: LONG } } }),
      ),
    );
    const statuses = answers.map((a) => String(a.json.status));
    expect(statuses.filter((s) => s === 'PROCESSING')).toHaveLength(4);
    expect(statuses.filter((s) => s === 'QUEUED')).toHaveLength(2);
    expect(server.platform.jobs.worker.runningJobs).toBe(4);
    expect(await countsOf(userId)).toEqual({ queued: 2, running: 4 });
    for (const answer of answers) await cancel(token, String(answer.json.job_id));
    expect(await countsOf(userId)).toEqual({ queued: 0, running: 0 });
  }, 60_000);
});
