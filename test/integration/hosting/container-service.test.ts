// The whole path on a real server with the runner on (CONTAINER_RUNNER=docker against Podman's
// Docker API) and a real registry: a publisher pushes the fixture image, saves a registry
// credential, creates a container service without endpoints, which deploys, imports its
// endpoints from the container's /openapi.json, runs a job through the container (metrics with
// the cold start), scales to zero, cold-starts on the next job, and leaves no container when
// deleted. Skips with how to run it when Podman is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { LOG_LATE_MS } from '../../../reference-app/server/hosting';
import { hostingSkipReason, runnerEnv, useHosting } from './hostingSetup';
import { publishContainer } from './publishContainer';
import { apiClients, confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';

const skip = hostingSkipReason();
if (skip) console.warn(`container service tests skipped: ${skip}`);

describe.skipIf(skip)('a container service on a real runner (Podman)', () => {
  const h = useHosting('greeter:1');
  let server: PlatformTestServer;

  beforeAll(async () => {
    server = await startPlatformServer({ env: runnerEnv(h) });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  }, 60_000);

  it('build, push, deploy, run, scale to zero, cold start, delete: nothing left', { timeout: 90_000 }, async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const token = session.access_token;
    const api = apiClients(server, token);

    const created = await publishContainer(server, token, h.registry, { image: h.image, name: 'Container greeter', idleTimeoutS: 10 });
    // The create answers while the image is pulled: deploying, not yet running (issue 35, finding 8).
    expect(created.runtime).toMatchObject({ type: 'container', deployment_status: 'deploying' });
    const id = created.id;
    const hosting = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json as Record<
        string,
        unknown
      >;

    await expect.poll(async () => (await hosting()).status, { timeout: 30_000 }).toBe('running');
    expect(await hosting()).toMatchObject({ instances: 1, message: 'Healthy' });
    // The endpoints came from the container's own /openapi.json.
    await expect
      .poll(async () => {
        const service = await api.services.get(id);
        return service.ok ? service.data.endpoints.map((e) => `${e.method} ${e.path}`) : [];
      })
      .toEqual(['POST /greet']);

    const caller = await signedIn(server, await confirmedUser(server, 'container-caller'));
    const run = async () =>
      (
        await rawApi(server, 'POST', '/v1/jobs', {
          token: caller.session.access_token,
          body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
          headers: { Prefer: 'wait=30' },
        })
      ).json as unknown as { job_id: string; status: string; runtime: string; result: { text: string; container: string } };
    const first = await run();
    expect(first).toMatchObject({ status: 'FINISHED', runtime: 'container', result: { text: 'Hello, Ada.' } });
    // The line the container wrote while the job ran is the job's, for the job's owner.
    // (The engine's log stream lags the answer a little: the line joins the job within LOG_LATE_MS.)
    await expect
      .poll(async () => (await rawApi(server, 'GET', `/v1/jobs/${first.job_id}`, { token: caller.session.access_token })).json.logs, {
        timeout: LOG_LATE_MS + 1000,
      })
      .toEqual([expect.objectContaining({ stream: 'stdout', text: 'greeting Ada' })]);
    // The owner reads the deployment's tail (the runner's stage lines too) and the job's times.
    // The job's stream sends the line as a `log` event, even when it lags the final envelope.
    const callerJobs = apiClients(server, caller.session.access_token).jobs;
    const streamed = await callerJobs.create({ service_id: id, endpoint: '/greet', input: { name: 'Grace' } });
    if (!streamed.ok) throw new Error(streamed.error);
    const lines: string[] = [];
    const done = await callerJobs.subscribe(streamed.data.job_id, { onJob: () => {}, onLog: (l) => lines.push(`${l.stream} ${l.text}`) })
      .done;
    expect(done).toMatchObject({ status: 'FINISHED', result: { text: 'Hello, Grace.' } });
    expect(lines).toEqual(['stdout greeting Grace']);
    await expect.poll(async () => JSON.stringify((await hosting()).logs)).toContain('greeting Ada');
    const owned = await hosting();
    expect(owned).toMatchObject({ last_queue_ms: expect.any(Number), last_run_ms: expect.any(Number) });
    const tail = (owned.logs as Array<{ stream: string; text: string }>).map((l) => `${l.stream} ${l.text}`);
    expect(tail).toEqual(expect.arrayContaining(['stdout greeting Ada', expect.stringMatching(/^runner Instance ready in \d+ ms/)]));

    await expect.poll(async () => (await hosting()).status, { timeout: 30_000, interval: 500 }).toBe('scaled_to_zero');
    expect(await hosting()).toMatchObject({ instances: 0 });

    const second = await run();
    expect(second).toMatchObject({ status: 'FINISHED', result: { text: 'Hello, Ada.' } });
    const after = await hosting();
    expect(after).toMatchObject({ status: 'running', instances: 1 });
    expect(after.last_cold_start_ms).toBeGreaterThan(0);

    expect(await api.services.remove(id)).toMatchObject({ ok: true });
    await expect.poll(() => h.t.engine.containersOf(id)).toEqual([]);
  });

  it('an image from a registry off the list is refused when saved, naming the field and the registries allowed', async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const api = apiClients(server, session.access_token);
    const servers = await api.modelManagement.pricingServers();
    if (!servers.ok) throw new Error(servers.error);
    const runtime = { type: 'container' as const, gpu: servers.data[0]!.id, min_instances: 0, max_instances: 1, idle_timeout_s: 60 };
    // The engine's TCP API on loopback, a host on the private network: before, the host's engine
    // pulled from them at the publisher's word.
    for (const image of ['127.0.0.1:2375/me/x:1', '10.0.0.5:5000/me/x:1', 'localhost/me/x:1']) {
      const refused = await rawApi(server, 'POST', '/v1/model_management/services', {
        token: session.access_token,
        body: { display_name: `Off the list ${image}`, visibility: 'public', runtime: { ...runtime, image } },
      });
      expect(refused.status, image).toBe(422);
      const registry = image.split('/')[0];
      expect(refused.json.errors).toEqual([
        {
          name: 'runtime.image',
          rule: 'registry',
          message: `the registry ${registry} is not one this platform deploys from; push the image to ${h.registry.host}`,
        },
      ]);
    }
  });
});
