import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, testRuntime, TEXT2IMG, untilFinal } from './fixtures';

// The worker's wake-up path (jobs/worker.ts, docs/jobs.md "Speed"): with a poll interval of ten
// minutes, every job below must be claimed by a wake-up (a create, a freed slot), never by the
// poll. A lost wake-up leaves a job QUEUED and the test fails on untilFinal (30 s), not on a timing.

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({ runtimes: () => testRuntime, env: { JOB_POLL_MS: '600000', JOB_WORKER_SLOTS: '2' } });
});
afterAll(() => server.close());

const create = async (token: string, prompt: string) => {
  const { status, json } = await rawApi(server, 'POST', '/v1/jobs', { token, body: { service_id: TEXT2IMG, input: { prompt } } });
  expect(status).toBe(201);
  return String(json.job_id);
};

describe('wake-up without the poll', () => {
  it('runs jobs created during and right after a claim batch, and those waiting for a freed slot', async () => {
    const { token } = await runner(server, 'wake-up');
    // More jobs than slots at once: the rest wait for slots freed by the first ones.
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => create(token, `sleep:${20 + i}`)));
    // Created while the batch is being claimed or run.
    const during = await create(token, 'during the batch');
    for (const id of [...burst, during]) expect((await untilFinal(server, token, id)).status).toBe('FINISHED');
    // Created once the worker is idle, past the service cache's freshness (1 s): it runs with the
    // service it read before while reading it again (jobs/serviceCache.ts).
    await new Promise((r) => setTimeout(r, 1100));
    const later = await create(token, 'after a pause');
    expect((await untilFinal(server, token, later)).status).toBe('FINISHED');
    // And the one after it, with the service read again.
    expect((await untilFinal(server, token, await create(token, 'after the reload'))).status).toBe('FINISHED');
  }, 60_000);
});
