import { afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, testRuntime, TEXT2IMG } from './fixtures';

// The per-account limit of job creates (docs/security.md, "Limits"), against a real server: a
// create that reaches the queue is counted by its own insert statement, any other create through
// the limiter, both on one counter; every route that creates a job is limited.

const servers: PlatformTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(env: Record<string, string>) {
  const server = await startPlatformServer({ runtimes: () => testRuntime, env: { JOB_WORKER_SLOTS: '0', ...env } });
  servers.push(server);
  return server;
}

const valid = (i: number) => ({ service_id: TEXT2IMG, input: { prompt: `job ${i}` } });
const create = (server: PlatformTestServer, token: string, body: Record<string, unknown>) =>
  rawApi(server, 'POST', '/v1/jobs', { token, body });

async function counter(server: PlatformTestServer, userId: string) {
  return server.platform.database.db
    .selectFrom('rate_limits')
    .select(['points', 'expire'])
    .where('key', '=', `user-jobs:${userId}`)
    .executeTakeFirst();
}

describe('the limit of job creates per account', () => {
  it('counts parallel creates in their insert statement: of 8 at once with a limit of 5, exactly 5 are queued', async () => {
    const server = await start({ RATE_LIMIT_JOBS: '5' });
    const { token, userId } = await runner(server, 'burst');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => create(server, token, valid(i))));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(String(answer.json.detail)).toMatch(/^Too many jobs created: at most 5 per 300 s per account; retry in \d+ s$/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Counted on the counter rate-limiter-flexible keeps, each create at most once: the first
    // refusal comes from a statement (so at least 6); creates that arrive once this process knows
    // the account is over the limit are refused without counting. Nothing refused was queued or held.
    const row = await counter(server, userId);
    expect(row?.points).toBeGreaterThanOrEqual(6);
    expect(row?.points).toBeLessThanOrEqual(8);
    expect(Number(row?.expire)).toBeGreaterThan(Date.now());
    const list = await rawApi(server, 'GET', '/v1/jobs', { token });
    expect(list.json.jobs).toHaveLength(5);
    const holds = await rawApi(server, 'GET', '/v1/jobs/holds', { token });
    expect(holds.json.holds).toHaveLength(5);
    // Past the limit even a bad create answers 429 first, as when the limit was checked before the input.
    const bad = await create(server, token, { service_id: TEXT2IMG, input: {} });
    expect(bad.status).toBe(429);
  }, 60_000);

  it('counts creates that never reach the queue on the same counter', async () => {
    const server = await start({ RATE_LIMIT_JOBS: '5' });
    const { token, userId } = await runner(server, 'mixed');
    for (let i = 0; i < 3; i++) expect((await create(server, token, { service_id: TEXT2IMG, input: {} })).status).toBe(422);
    expect((await create(server, token, { service_id: 'no-such-service', input: {} })).status).toBe(404);
    expect((await create(server, token, valid(1))).status).toBe(201);
    expect((await create(server, token, valid(2))).status).toBe(429);
    expect((await counter(server, userId))?.points).toBe(6);
  }, 60_000);

  it('limits the per-service run operation as POST /v1/jobs, on one counter', async () => {
    const server = await start({ RATE_LIMIT_JOBS: '4' });
    const { token } = await runner(server, 'two-routes');
    const run = () => rawApi(server, 'POST', `/v1/services/${TEXT2IMG}/run/generate`, { token, body: { input: { prompt: 'x' } } });
    expect((await create(server, token, valid(1))).status).toBe(201);
    expect((await create(server, token, valid(2))).status).toBe(201);
    expect((await run()).status).toBe(201);
    expect((await run()).status).toBe(201);
    const refused = await run();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await create(server, token, valid(3))).status).toBe(429);
  }, 60_000);

  it('lets creates in again once the window has passed', async () => {
    const server = await start({ RATE_LIMIT_JOBS: '2', RATE_LIMIT_WINDOW: '1' });
    const { token } = await runner(server, 'window');
    const first = await Promise.all([0, 1, 2].map((i) => create(server, token, valid(i))));
    expect(first.map((a) => a.status).sort()).toEqual([201, 201, 429]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await create(server, token, valid(3))).status).toBe(201);
  }, 60_000);

  it('counts in memory with RATE_LIMIT_STORE=memory, and writes no counter', async () => {
    const server = await start({ RATE_LIMIT_JOBS: '2', RATE_LIMIT_STORE: 'memory' });
    const { token, userId } = await runner(server, 'memory');
    const answers = await Promise.all([0, 1, 2, 3].map((i) => create(server, token, valid(i))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429, 429]);
    expect(await counter(server, userId)).toBeUndefined();
  }, 60_000);
});
