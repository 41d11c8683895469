// The hosting wire without a container engine (docs/publishing.md, docs/jobs.md "Logs"), on a
// real server with PGlite: a job's log lines in GET /v1/jobs/{id} and as `log` events on its
// stream (stored ones replayed first, new ones as they are written, all before the final
// envelope), the owner's model_hosting_information (the deployment's log tail, the newest job's
// queue and run times), the bound on stored lines, the container runtime fields of the
// publishing schema, and one GPU offer per line. The lines are written by the runner's own
// writer (hosting/deploymentLogs.ts), exactly as the runner stores them.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobLogLine, ManagedService, PricingServer } from '../../../src/api';
import { CONTAINER_RUNTIME_DEFAULTS } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { jobEventsChannel } from '../../../reference-app/server/jobs';
// reaches inside: log webhooks queued as platform.ts wires them into the log writer
import { insertLogWebhooks } from '../../../reference-app/server/jobs/queries';
import {
  DEPLOYMENT_LOG_ROWS,
  DeploymentLogWriter,
  LOG_TRIM_EVERY,
  type LogLine,
  waitingFleet,
  type ContainerSpec,
  type FleetAdapter,
} from '../../../reference-app/server/hosting';
// reaches inside: the runner's own writer of its reports (hosting/containerHosting.ts, storeReport)
import { updateHostingState } from '../../../reference-app/server/hosting/queries';
import { importEndpoints } from '../../../reference-app/server/publishing';
import { ownAddressOf } from '../../../reference-app/server/runtimes';
import { apiClients, confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';
import { runner, testRuntimes, TEXT2IMG } from '../jobs/fixtures';

let server: PlatformTestServer;
let writer: DeploymentLogWriter;
let seq = 0;
const line = (text: string, stream: LogLine['stream'] = 'stdout', instance = 'abc123def456'): LogLine => ({
  seq: ++seq,
  at: new Date().toISOString(),
  stream,
  instance,
  text,
});

/** The fleet seam (hosting/fleet.ts) with no runner behind it, recording what it is asked to deploy. */
const deployed: ContainerSpec[] = [];
const recordingFleet: FleetAdapter = {
  ...waitingFleet,
  async deploy(spec) {
    deployed.push(spec);
    return waitingFleet.deploy(spec);
  },
};

beforeAll(async () => {
  server = await startPlatformServer({ runtimes: testRuntimes, fleet: recordingFleet, env: { JOB_POLL_MS: '200' } });
  const { db } = server.platform.database;
  writer = new DeploymentLogWriter(db, jobEventsChannel(undefined), (jobIds) => insertLogWebhooks(db, jobIds));
});
afterAll(() => server?.close());

const db = () => server.platform.database.db;

describe('job logs', () => {
  it('GET /v1/jobs/{id} answers the lines written while the job ran, to its owner only', async () => {
    const { token } = await runner(server);
    const { json } = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: TEXT2IMG, input: { prompt: 'quick' } },
      headers: { Prefer: 'wait=10' },
    });
    const id = String(json.job_id);
    // A job of another runtime has no lines: an empty array, not a missing field.
    expect((await rawApi(server, 'GET', `/v1/jobs/${id}`, { token })).json.logs).toEqual([]);

    writer.add(TEXT2IMG, line('loading weights'), id);
    writer.add(TEXT2IMG, line('warning: slow disk', 'stderr'), id);
    writer.add(TEXT2IMG, line('another job', 'stdout'), null);
    await writer.jobDone(id);
    const logs = (await rawApi(server, 'GET', `/v1/jobs/${id}`, { token })).json.logs as JobLogLine[];
    expect(logs.map(({ stream, text }) => ({ stream, text }))).toEqual([
      { stream: 'stdout', text: 'loading weights' },
      { stream: 'stderr', text: 'warning: slow disk' },
    ]);
    expect(Number.isNaN(Date.parse(logs[0]!.at))).toBe(false);

    const other = await runner(server, 'other');
    expect((await rawApi(server, 'GET', `/v1/jobs/${id}`, { token: other.token })).status).toBe(404);
  });

  it('the stream replays stored lines, then sends new ones as they are written, before the final envelope', async () => {
    const { token, jobs } = await runner(server);
    const created = await jobs.create({ service_id: TEXT2IMG, input: { prompt: 'sleep:1500' } });
    if (!created.ok) throw new Error(created.error);
    const id = created.data.job_id;
    // Streams read log lines for container jobs only; the test runtime stands in for a container.
    await db().updateTable('jobs').set({ runtime: 'container' }).where('id', '=', id).execute();
    writer.add(TEXT2IMG, line('before the subscriber'), id);
    await writer.flush();

    const events: string[] = [];
    const lines: JobLogLine[] = [];
    const subscription = jobs.subscribe(id, {
      onJob: (job: Job) => events.push(`job ${job.status}`),
      onLog: (l) => {
        lines.push(l);
        events.push(`log ${l.text}`);
      },
    });
    await expect.poll(() => lines.length).toBe(1);
    writer.add(TEXT2IMG, line('while it runs'), id);
    await writer.flush();
    // Sent when written (the notification wakes the stream), not at the end.
    await expect.poll(() => lines.length, { timeout: 1000 }).toBe(2);
    expect(events.at(-1)).not.toBe('job FINISHED');
    writer.add(TEXT2IMG, line('last words', 'stderr'), id);
    await writer.jobDone(id);
    expect(await subscription.done).toMatchObject({ status: 'FINISHED' });

    expect(lines.map((l) => `${l.stream} ${l.text}`)).toEqual([
      'stdout before the subscriber',
      'stdout while it runs',
      'stderr last words',
    ]);
    expect(events.at(-1)).toBe('job FINISHED');

    // A late subscriber to the finished job gets every line, then the final envelope.
    const raw = await (await fetch(`${server.url}/v1/jobs/${id}/stream`, { headers: { Authorization: `Bearer ${token}` } })).text();
    const order = [...raw.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(order).toEqual(['log', 'log', 'log', 'job']);
    expect(raw).toContain('data: {"at":');
    expect(raw).toContain('"text":"last words"');
  });
});

describe('container runtime fields and hosting information', () => {
  let owner: string;
  let serviceId: string;

  beforeAll(async () => {
    owner = (await signedIn(server, PUBLISHER)).session.access_token;
    const created = await apiClients(server, owner).services.create({
      display_name: 'Wire container',
      visibility: 'public',
      runtime: {
        type: 'container',
        image: 'ghcr.io/me/wire:1',
        gpu: 'runpod-l4-24',
        min_instances: 0,
        max_instances: 2,
        idle_timeout_s: 60,
      },
    });
    if (!created.ok) throw new Error(created.error);
    serviceId = created.data.id;
  });

  it('a container runtime left without port, health_path and concurrency gets the documented defaults', async () => {
    const service = await apiClients(server, owner).services.get(serviceId);
    expect(service).toMatchObject({ ok: true, data: { runtime: { type: 'container', ...CONTAINER_RUNTIME_DEFAULTS } } });
  });

  it('port, health_path and concurrency are stored as given, and bad ones answer 422 per field', async () => {
    const runtime = {
      type: 'container',
      image: 'ghcr.io/me/wire:2',
      gpu: 'runpod-l4-24',
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: 60,
    };
    const good = await rawApi(server, 'PATCH', `/v1/model_management/services/${serviceId}`, {
      token: owner,
      body: { runtime: { ...runtime, port: 8000, health_path: '/healthz', concurrency: 4 } },
    });
    expect(good.status, JSON.stringify(good.json)).toBe(200);
    expect((good.json as unknown as ManagedService).runtime).toMatchObject({ port: 8000, health_path: '/healthz', concurrency: 4 });
    // They reach the fleet that runs the containers.
    expect(deployed.at(-1)).toMatchObject({ serviceId, port: 8000, healthPath: '/healthz', concurrency: 4 });

    const bad = await rawApi(server, 'PATCH', `/v1/model_management/services/${serviceId}`, {
      token: owner,
      body: { runtime: { ...runtime, port: 70000, health_path: 'healthz', concurrency: 0 } },
    });
    expect(bad.status).toBe(422);
    const text = JSON.stringify(bad.json);
    expect(text).toContain('must be a port between 1 and 65535');
    expect(text).toContain('must be a path starting with /');
    expect(text).toContain('must be between 1 and 64 jobs at once');
    // Nothing stored was lost.
    const after = await apiClients(server, owner).services.get(serviceId);
    expect(after).toMatchObject({ ok: true, data: { runtime: { port: 8000, health_path: '/healthz', concurrency: 4 } } });
  });

  it('runtime.snapshot is true by default, stored and deployed when false, and 422 when not a boolean', async () => {
    const runtime = {
      type: 'container',
      image: 'ghcr.io/me/wire:3',
      gpu: 'runpod-l4-24',
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: 60,
    };
    const patch = (body: unknown) => rawApi(server, 'PATCH', `/v1/model_management/services/${serviceId}`, { token: owner, body });
    const byDefault = await patch({ runtime });
    expect(byDefault.status, JSON.stringify(byDefault.json)).toBe(200);
    expect((byDefault.json as unknown as { runtime: { snapshot: boolean } }).runtime.snapshot).toBe(true);
    expect(deployed.at(-1)).toMatchObject({ serviceId });
    expect(deployed.at(-1)?.snapshot).toBeUndefined();

    const off = await patch({ runtime: { ...runtime, snapshot: false } });
    expect(off.status, JSON.stringify(off.json)).toBe(200);
    expect((off.json as unknown as { runtime: { snapshot: boolean } }).runtime.snapshot).toBe(false);
    // The runner is told: it never snapshots the service (docs/deploy.md, "Snapshot cold starts").
    expect(deployed.at(-1)).toMatchObject({ serviceId, snapshot: false });
    const row = await db().selectFrom('service_runtimes').select('snapshot').where('model_id', '=', serviceId).executeTakeFirstOrThrow();
    expect(row.snapshot).toBe(false);

    for (const value of ['no', 0, null]) {
      const bad = await patch({ runtime: { ...runtime, snapshot: value } });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(bad.json)).toMatch(/runtime\.snapshot.*must be true or false/);
    }
    const after = await apiClients(server, owner).services.get(serviceId);
    expect(after).toMatchObject({ ok: true, data: { runtime: { snapshot: false } } });
  });

  it("answers the owner the deployment's last lines and newest job times; others get neither", async () => {
    const url = `/v1/model_management/model_hosting_information?model_id=${serviceId}`;
    const fresh = (await rawApi(server, 'GET', url, { token: owner })).json;
    expect(fresh).toMatchObject({ status: 'waiting_for_runner', instances: 0, logs: [], last_queue_ms: null, last_run_ms: null });

    for (let i = 0; i < 120; i += 1) writer.add(serviceId, line(`line ${i}`));
    writer.add(serviceId, line('Instance ready in 80 ms (unpause 20 ms, ready 60 ms)', 'runner'));
    await writer.flush();
    // A finished job of the service (its times as the queue stored them), from one reading of the
    // clock: three readings drift apart by a millisecond on a busy machine (201 ms, not 200).
    const now = Date.now();
    await db()
      .insertInto('jobs')
      .values({
        user_id: (await signedIn(server, PUBLISHER)).user.id,
        service_id: serviceId,
        endpoint: '/greet',
        status: 'FINISHED',
        input: '{}',
        runtime: 'container',
        time_limit_s: 60,
        price_per_s_usd: 0.0002,
        created_at: new Date(now - 5000),
        started_at: new Date(now - 4700),
        finished_at: new Date(now - 4500),
      } as never)
      .execute();

    const info = (await rawApi(server, 'GET', url, { token: owner })).json;
    const logs = info.logs as Array<{ stream: string; text: string; instance: string }>;
    expect(logs).toHaveLength(100);
    expect(logs.at(-1)).toMatchObject({ stream: 'runner', text: 'Instance ready in 80 ms (unpause 20 ms, ready 60 ms)' });
    expect(logs[0]).toMatchObject({ stream: 'stdout', text: 'line 21', instance: 'abc123def456' });
    expect(info).toMatchObject({ last_queue_ms: 300, last_run_ms: 200 });

    const stranger = await signedIn(server, await confirmedUser(server, 'stranger'));
    const seen = (await rawApi(server, 'GET', url, { token: stranger.session.access_token })).json;
    expect(seen).toMatchObject({ status: 'waiting_for_runner' });
    expect(seen).not.toHaveProperty('logs');
    expect(seen).not.toHaveProperty('last_run_ms');
  });

  it('reports the memory snapshot a start from zero restores: its size, time and age (docs/deploy.md, "Snapshot cold starts")', async () => {
    const url = `/v1/model_management/model_hosting_information?model_id=${serviceId}`;
    const before = (await rawApi(server, 'GET', url, { token: owner })).json as unknown as {
      status: string;
      message: string | null;
      snapshot: unknown;
    };
    expect(before.snapshot).toBeNull();
    const state = { status: before.status, message: before.message ?? '', instances: 0, base_url: null };
    const takenAt = new Date(Date.now() - 90_000);
    await updateHostingState(db(), serviceId, { ...state, snapshot_bytes: 7_654_321, snapshot_taken_at: takenAt });
    const { snapshot } = (await rawApi(server, 'GET', url, { token: owner })).json as unknown as {
      snapshot: { size_mb: number; taken_at: string; age_s: number };
    };
    expect(snapshot).toMatchObject({ size_mb: 7.3, taken_at: takenAt.toISOString() });
    expect(snapshot.age_s).toBeGreaterThanOrEqual(90);
    expect(snapshot.age_s).toBeLessThan(150);
    // Counted in the owner's storage quota: with a snapshot that fills it, an upload does not fit.
    const quotaFull = 50 * 1024 * 1024 * 1024;
    await updateHostingState(db(), serviceId, { ...state, snapshot_bytes: quotaFull, snapshot_taken_at: takenAt });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(1024)], { type: 'image/png' }), 'small.png');
    const refused = await fetch(`${server.url}/v1/files`, { method: 'POST', headers: { Authorization: `Bearer ${owner}` }, body: form });
    expect(refused.status).toBe(413);
    expect(String(((await refused.json()) as { detail: string }).detail)).toMatch(
      /are in use \(51200 MB of them your services' memory snapshots\); this file \(0 MB\) does not fit/,
    );
    // Removed with the service's digest or the service: none reported.
    await updateHostingState(db(), serviceId, { ...state, snapshot_bytes: null, snapshot_taken_at: null });
    expect((await rawApi(server, 'GET', url, { token: owner })).json.snapshot).toBeNull();
  });

  it(`keeps at most ${DEPLOYMENT_LOG_ROWS} rows per deployment`, async () => {
    const deployment = 'wire-bounded';
    for (let i = 0; i < DEPLOYMENT_LOG_ROWS + LOG_TRIM_EVERY; i += 1) writer.add(deployment, line(`chatty ${i}`));
    await writer.flush();
    const rows = await db().selectFrom('deployment_logs').select(['line']).where('deployment_id', '=', deployment).orderBy('id').execute();
    expect(rows).toHaveLength(DEPLOYMENT_LOG_ROWS);
    expect(rows[0]!.line).toBe(`chatty ${LOG_TRIM_EVERY}`);
  });
});

describe('GPU offers', () => {
  it('answers one line per offer: rows that differ only by price are one, at the cheapest price', async () => {
    const base = { display_name: 'Wire GPU 12 GB', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 12 };
    await db()
      .insertInto('pricing_servers')
      .values([
        { ...base, id: 'wire-gpu-dear', customer_price_per_s_usd: 0.0009 },
        { ...base, id: 'wire-gpu-cheap', customer_price_per_s_usd: 0.0002 },
        { ...base, id: 'wire-gpu-secure', provider: 'runpod-secure', customer_price_per_s_usd: 0.0004 },
      ])
      .execute();
    const all = (await rawApi(server, 'GET', '/v1/model_management/pricing_servers')).json as unknown as PricingServer[];
    const offers = all.filter((s) => s.display_name === base.display_name);
    expect(offers.map((s) => [s.id, s.provider, s.customer_price_per_s_usd])).toEqual([
      ['wire-gpu-cheap', 'runpod', 0.0002],
      ['wire-gpu-secure', 'runpod-secure', 0.0004],
    ]);
    const keys = all.map((s) => `${s.display_name}|${s.provider}|${s.gpu_vram_gb}|${s.physical_gpus}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

// The first healthy instance's /openapi.json fills in a service saved without endpoints
// (hosting/containerHosting.ts). A redirect in that answer is followed hop by hop (issue 35):
// on the container's own origin as it comes, anywhere else only through the URL policy. Before,
// fetch followed it anywhere from the host. Local servers stand for the container and for a host
// service the container points at.
describe('endpoints imported from a container, redirects', () => {
  const servers: Server[] = [];
  const serve = async (handler: RequestListener) => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const document = JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Wire', version: '1' },
    paths: { '/greet': { post: { responses: { 200: { description: 'ok' } } } } },
  });
  const seen: string[] = [];
  let hostService: string;
  let owner: string;
  afterAll(() => servers.forEach((s) => s.close()));

  beforeAll(async () => {
    hostService = await serve((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(document);
    });
    owner = (await signedIn(server, PUBLISHER)).session.access_token;
  });

  const emptyService = async (name: string) => {
    const runtime = {
      type: 'container' as const,
      image: 'ghcr.io/me/wire:1',
      gpu: 'runpod-l4-24',
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: 60,
    };
    const created = await apiClients(server, owner).services.create({ display_name: name, visibility: 'public', runtime });
    if (!created.ok) throw new Error(created.error);
    return created.data.id;
  };
  const endpointsOf = async (id: string) => {
    const service = await apiClients(server, owner).services.get(id);
    return service.ok ? service.data.endpoints.map((e) => `${e.method} ${e.path}`) : null;
  };
  /** A "container" whose /openapi.json redirects to `to` (relative: its own origin). */
  const redirecting = (to: string) =>
    serve((req, res) => {
      if (req.url === '/openapi.json') return void res.writeHead(302, { location: to }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(document);
    });

  it('a redirect to another address is refused in production, and that address sees nothing', async () => {
    const id = await emptyService('Wire redirect elsewhere');
    const container = await redirecting(`${hostService}/openapi.json`);
    await expect(importEndpoints(db(), id, container, { allowPrivateAddresses: false })).rejects.toThrow(
      `url: the redirect to ${hostService}/openapi.json is refused: The host 127.0.0.1 resolves to a private address (127.0.0.1); only public addresses are allowed`,
    );
    expect(seen).toEqual([]);
    expect(await endpointsOf(id)).toEqual([]);
  });

  it('a redirect to the platform itself is refused in every mode', async () => {
    const id = await emptyService('Wire redirect home');
    const container = await redirecting(`${server.url}/v1/openapi.json`);
    const own = ownAddressOf(server.url, Number(new URL(server.url).port));
    await expect(importEndpoints(db(), id, container, { allowPrivateAddresses: true, own })).rejects.toThrow(/this platform's own address/);
    expect(await endpointsOf(id)).toEqual([]);
  });

  it('a redirect on the container’s own origin is followed, whatever the policy says of private addresses', async () => {
    const id = await emptyService('Wire redirect own');
    const container = await redirecting('/docs/openapi.json');
    await importEndpoints(db(), id, container, { allowPrivateAddresses: false });
    expect(await endpointsOf(id)).toEqual(['POST /greet']);
  });
});
