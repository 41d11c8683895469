// Several processes on one PostgreSQL (docs/deploy.md, "Several runners"): an API server without
// a runner and two runner agents (`reference-app/server/runner.ts`, real child processes) against
// real Podman and a real registry. Exactly one agent manages the deployment; jobs created through
// the API server are run by the holder's worker (the API server would fail them: it holds no
// deployment); when the holder is killed, the other agent takes the deployment over and jobs run
// again. Skips with how to run it when Podman or PostgreSQL is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
// reaches inside: which runner process holds the deployment's lease, to stop that one
import { leaseHolder } from '../../../reference-app/server/hosting/deploymentLeases';
import { hostingSkipReason, runnerEnv, useHosting } from './hostingSetup';
import { publishContainer } from './publishContainer';
import { apiClients, confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';
import { testPostgres, type TestPostgres } from '../jobs/postgres';

const pg: TestPostgres = await testPostgres();
const skip = hostingSkipReason() ?? ('skip' in pg ? pg.skip : null);
if (skip) console.warn(`runner fleet tests skipped: ${skip}`);

const root = path.resolve(import.meta.dirname, '../../..');

describe.skipIf(skip)('runner agents sharing one PostgreSQL', () => {
  const h = useHosting('fleet:1');
  let api: PlatformTestServer;
  const agents: ChildProcess[] = [];

  /** `npm run runner`, as a host of the fleet would start it. */
  function startAgent(): ChildProcess {
    const config = api.platform.config;
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'reference-app/server/runner.ts'], {
      cwd: root,
      env: {
        ...process.env,
        ...runnerEnv(h),
        DATABASE_URL: config.databaseUrl!,
        DATABASE_SCHEMA: config.databaseSchema!,
        // The same secret key (kept in the data directory) opens the sealed registry credential.
        DATA_DIR: config.dataDir,
        // The test's own registry serves the images; an agent's platform registry would take the
        // default 127.0.0.1:5000 (and the second agent could not bind it).
        PLATFORM_REGISTRY: 'off',
        PORT: '0',
        LOG_LEVEL: 'warn',
        JOB_POLL_MS: '200',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    agents.push(child);
    return child;
  }

  beforeAll(async () => {
    // The API server has no runner; it checks what publishers save against the same registry list.
    api = await startPlatformServer({
      databaseUrl: (pg as { url: string }).url,
      env: { JOB_POLL_MS: '200', CONTAINER_REGISTRIES: h.registry.host },
    });
  }, 120_000);

  afterAll(async () => {
    const alive = agents.filter((c) => c.exitCode === null && c.signalCode === null);
    await Promise.all(
      alive.map((c) => {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        return exited;
      }),
    );
    await api?.close();
    if (!('skip' in pg)) await pg.stop();
  }, 60_000);

  it('one agent manages the deployment, runs its jobs, and the other takes over when it dies', { timeout: 210_000 }, async () => {
    const first = startAgent();
    const second = startAgent();
    const { session } = await signedIn(api, PUBLISHER);
    const token = session.access_token;
    const { id } = await publishContainer(api, token, h.registry, { image: h.image, name: 'Fleet greeter', idleTimeoutS: 60 });
    const hosting = async () => (await rawApi(api, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json;
    const db = api.platform.database.db;
    const holderPid = async () => Number((await leaseHolder(db, id))?.split(':')[1] ?? 0);

    // One of the two agents takes it (the API server has no runner); the report reaches the API.
    // The clock includes the agents' start (tsx compiling the server): 30 s was too short with
    // other test files running beside this one.
    await expect.poll(holderPid, { timeout: 90_000, interval: 250 }).toBeGreaterThan(0);
    const pid = await holderPid();
    expect([first.pid, second.pid]).toContain(pid);
    await expect.poll(async () => (await hosting()).status, { timeout: 40_000, interval: 250 }).toBe('running');
    // The holder imported the endpoints from the container's /openapi.json.
    await expect
      .poll(async () => {
        const service = await apiClients(api, token).services.get(id);
        return service.ok ? service.data.endpoints.length : 0;
      })
      .toBe(1);

    const caller = await signedIn(api, await confirmedUser(api, 'fleet-caller'));
    const run = async () =>
      (
        await rawApi(api, 'POST', '/v1/jobs', {
          token: caller.session.access_token,
          body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
          headers: { Prefer: 'wait=40' },
        })
      ).json;
    // The API server created it; only the holder's worker may claim it, and it runs in its container.
    expect(await run()).toMatchObject({ status: 'FINISHED', runtime: 'container', result: { text: 'Hello, Ada.' } });
    expect(await holderPid()).toBe(pid);

    // The holder dies without giving its lease up: the other agent takes over after the lease expires.
    const holder = pid === first.pid ? first : second;
    const survivor = holder === first ? second : first;
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    await expect.poll(holderPid, { timeout: 40_000, interval: 500 }).toBe(survivor.pid);
    await expect.poll(async () => (await hosting()).status, { timeout: 40_000, interval: 250 }).toBe('running');
    expect(await run()).toMatchObject({ status: 'FINISHED', runtime: 'container', result: { text: 'Hello, Ada.' } });
    // The dead holder's containers were removed at the takeover: the survivor's are all that run.
    const running = (await h.t.engine.containersOf(id)).length;
    expect(running).toBeGreaterThan(0);
    expect(running).toBeLessThanOrEqual(2); // one serving instance and its warm spare

    // Deleting through the API server: the holder notices at its next renewal and removes all.
    expect(await apiClients(api, token).services.remove(id)).toMatchObject({ ok: true });
    await expect.poll(() => h.t.engine.containersOf(id), { timeout: 20_000, interval: 500 }).toEqual([]);
    // The holder gives the lease up after removing the containers, a moment later.
    await expect.poll(() => leaseHolder(db, id), { timeout: 10_000, interval: 250 }).toBeNull();
  });
});
