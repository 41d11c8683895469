import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditsForRun, estimateRun } from '../../../src/run';
import type { Job } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { createPriceBasisClient } from '../../../src/api/modelManagement';
import { rawApi } from '../helpers';
import { runner, testRuntimes, TEXT2IMG } from '../jobs/fixtures';

// Cost before running (issue 25, item 9): everyone reads the price basis (the service GPU's price
// per second and the endpoint's measured run times), and after a run the estimate is that run's
// measured duration, so estimate and charge agree.

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({ runtimes: testRuntimes, env: { JOB_POLL_MS: '200' } });
});
afterAll(() => server?.close());

describe('GET /v1/model_management/price_basis', () => {
  it('answers anonymous visitors for a public service: GPU, price per second, no runs yet', async () => {
    const priceBasis = createPriceBasisClient({ baseURL: server.url, getAccessToken: () => null });
    const basis = await priceBasis(TEXT2IMG, '/generate');
    if (!basis.ok) throw new Error(basis.error);
    expect(basis.data).toMatchObject({ service_id: TEXT2IMG, endpoint: '/generate', recent_run_seconds: [] });
    expect(basis.data.gpu).toEqual(expect.any(String));
    expect(basis.data.price_per_s_usd).toBeGreaterThan(0);
  });

  it('after a run the estimate is its measured duration and equals what it was charged', async () => {
    const { token } = await runner(server, 'estimate');
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: TEXT2IMG, endpoint: '/generate', input: { prompt: 'sleep:300' } },
      headers: { Prefer: 'wait=20' },
    });
    const job = created.json as unknown as Job;
    expect(job.status).toBe('FINISHED');

    const basis = await createPriceBasisClient({ baseURL: server.url, getAccessToken: () => null })(TEXT2IMG, '/generate');
    if (!basis.ok) throw new Error(basis.error);
    expect(basis.data.recent_run_seconds).toEqual([job.metrics!.gpu_seconds]);
    const estimate = estimateRun({ pricePerSecondUsd: basis.data.price_per_s_usd, recentRunSeconds: basis.data.recent_run_seconds });
    expect(estimate.seconds).toBeGreaterThanOrEqual(0.3);
    expect(estimate.credits).toBe(creditsForRun(job.metrics!.gpu_seconds!, basis.data.price_per_s_usd));
    expect(estimate.credits).toBe(job.metrics!.cost_credits);
  });

  it('unknown and private services are 404 for anonymous visitors; a bad query is 422', async () => {
    expect(await rawApi(server, 'GET', '/v1/model_management/price_basis?service_id=no-such-service')).toMatchObject({ status: 404 });
    expect(await rawApi(server, 'GET', '/v1/model_management/price_basis?service_id=contract-analyst')).toMatchObject({ status: 404 });
    expect(await rawApi(server, 'GET', '/v1/model_management/price_basis')).toMatchObject({ status: 422 });
  });
});
