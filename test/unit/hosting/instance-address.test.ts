// A container's address on the runner's network is the runner's business (issue 47, finding 9):
// callers read "Calling http://10.89.0.2:8080" in a job's progress. A job on a container names
// its instance instead, in its progress and its errors, on both paths a container job takes (the
// Docker fleet's runtime and a fleet that only names an instance URL), and a failed health check
// names "the container", not its address. The instance here is a real local HTTP server; its
// loopback address stands in for the runner network's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../../reference-app/server/crypto/secretBox';
import type { Deployment } from '../../../reference-app/server/hosting/deployment';
import { waitReady } from '../../../reference-app/server/hosting/engine';
import { waitingFleet, type FleetAdapter } from '../../../reference-app/server/hosting/fleet';
import { LogRing } from '../../../reference-app/server/hosting/logRing';
import { createContainerRuntime } from '../../../reference-app/server/hosting/containerRuntime';
import { createRuntimeRegistry, type RunnableService } from '../../../reference-app/server/hosting/runtimeRegistry';
import { testContext } from '../server/runtimes/harness';

const ENDPOINT = { method: 'POST' as const, path: '/greet', parameters: [] };

let instance: Server;
let baseUrl: string;
let closedUrl: string;

beforeAll(async () => {
  // POST /greet answers at once; POST /job answers job-style with a status URL on another host.
  instance = createServer((req, res) => {
    const body =
      req.url === '/job' ? { id: 'j1', status: 'queued', status_url: 'http://169.254.169.254/latest/meta-data' } : { text: 'Hello.' };
    res.writeHead(req.url === '/job' ? 202 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(instance.address() as AddressInfo).port}`;
  // A port nothing listens on: an instance that stopped answering.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(() => {
  instance?.close();
});

const deploymentAt = (url: string) =>
  ({
    id: 'svc',
    logs: new LogRing(),
    acquire: async () => ({ baseUrl: url, instance: 'abc123def456', coldStartMs: 0, logCursor: 0, release: () => undefined }),
    instanceFailed: async () => undefined,
  }) as unknown as Deployment;

/** A fleet without its own runtime: the registry's container runtime calls the URL it names. */
const fleetAt = (url: string): FleetAdapter => ({
  ...waitingFleet,
  name: 'url-only',
  status: async () => ({ status: 'running', message: 'Healthy', detail: '1 instance running', instances: 1 }),
  instanceUrl: async () => url,
});

const containerService: RunnableService = {
  id: 'svc',
  provider: 'limelight',
  model_category: [],
  endpoints: [],
  is_public: true,
  created_by: null,
  status: 'active',
  runtime_type: 'container',
  base_url: null,
  headers_sealed: null,
};

const viaRegistry = (url: string) =>
  createRuntimeRegistry({
    box: createSecretBox(Buffer.alloc(32, 7)),
    config: { localDemoStepMs: 0, allowPrivateServiceUrls: true },
    fleet: fleetAt(url),
  }).runtimeFor(containerService)!;

describe("a container job's messages", () => {
  it('name the instance in the progress the caller reads, never its address (Docker fleet runtime)', async () => {
    const recorded = testContext(ENDPOINT);
    expect(await createContainerRuntime(deploymentAt(baseUrl)).run({}, recorded.ctx)).toEqual({ text: 'Hello.' });
    const messages = recorded.progress.map((p) => p.message ?? '');
    expect(messages).toContain('Calling instance abc123def456');
    for (const message of messages) expect(message).not.toContain('127.0.0.1');
  });

  it('a status URL elsewhere is refused without naming either address', async () => {
    const recorded = testContext({ ...ENDPOINT, path: '/job' });
    const run = createContainerRuntime(deploymentAt(baseUrl)).run({}, recorded.ctx);
    await expect(run).rejects.toMatchObject({
      code: 'invalid_url',
      message: "The service named another address as its job's status URL; only its own address (instance abc123def456) is called",
    });
  });

  it('name the container on a fleet that only names an instance URL, in progress and when it is unreachable', async () => {
    const recorded = testContext(ENDPOINT);
    expect(await viaRegistry(baseUrl).run({}, recorded.ctx)).toEqual({ text: 'Hello.' });
    expect(recorded.progress.map((p) => p.message)).toContain('Calling the service’s container');
    for (const p of recorded.progress) expect(p.message ?? '').not.toContain('127.0.0.1');

    const unreachable = viaRegistry(closedUrl).run({}, testContext(ENDPOINT).ctx);
    await expect(unreachable).rejects.toThrow(/^The service at the service’s container is unreachable \(/);
    await expect(unreachable).rejects.not.toThrow('127.0.0.1');
  });

  it('a failed health check says what the container did without its address', async () => {
    const waited = waitReady(closedUrl, { healthPath: '/health', timeoutMs: 300, intervalMs: 20 });
    await expect(waited).rejects.toThrow(/^The health check failed for 0 s: GET \/health: .*the container/);
    await expect(waited).rejects.not.toThrow('127.0.0.1');
  });
});
