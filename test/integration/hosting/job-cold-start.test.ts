// A job that waits for a container to start says so: its metrics carry the cold start and its tier. The runner
// measures it (hosting/containerRuntime.ts) and hands it to the queue's writer through the
// `jobColdStart` that platform.ts gives createContainerHosting (the jobs table is the queue's to
// write: docs/architecture.md, "Server layers"). Skips with how to run it when Podman is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { hostingSkipReason, runnerEnv, useHosting } from './hostingSetup';
import { publishContainer } from './publishContainer';
import { confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';

const skip = hostingSkipReason();
if (skip) console.warn(`job cold start test skipped: ${skip}`);

describe.skipIf(skip)('a job run on a container scaled to zero (Podman)', () => {
  const h = useHosting('greeter:1');
  let server: PlatformTestServer;

  beforeAll(async () => {
    server = await startPlatformServer({ env: runnerEnv(h) });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('records the cold start in the job’s metrics, and none for a job on a warm instance', { timeout: 90_000 }, async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const token = session.access_token;
    const { id } = await publishContainer(server, token, h.registry, { image: h.image, name: 'Cold greeter', idleTimeoutS: 10 });
    const status = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json.status;
    await expect.poll(status, { timeout: 30_000 }).toBe('running');

    const caller = await signedIn(server, await confirmedUser(server, 'cold-start-caller'));
    const run = async () => {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: caller.session.access_token,
        body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
        headers: { Prefer: 'wait=30' },
      });
      expect(created.json).toMatchObject({ status: 'FINISHED' });
      const job = await rawApi(server, 'GET', `/v1/jobs/${String(created.json.job_id)}`, { token: caller.session.access_token });
      return job.json.metrics as { cold_start_ms: number | null; cold_start_tier: string | null };
    };

    // Found warm: the instance was started for the deploy, not for this job.
    const warm = await run();
    expect(warm.cold_start_ms ?? 0).toBe(0);
    expect(warm.cold_start_tier).toBe('warm');
    await expect.poll(status, { timeout: 30_000, interval: 500 }).toBe('scaled_to_zero');
    // Scaled to zero: this job waits for an instance to start, and its metrics say how long.
    const cold = await run();
    expect(cold.cold_start_ms).toBeGreaterThan(0);
    // And where it came from (docs/deploy.md, "Snapshot cold starts"): the runner's paused pool.
    expect(cold.cold_start_tier).toBe('paused');

    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token })).status).toBeLessThan(300);
    await expect.poll(() => h.t.engine.containersOf(id)).toEqual([]);
  });
});
