// The container engine adapter against the real engine (Podman's Docker API) and a real
// registry (docker-registry with htpasswd auth): pulls with and without the right credential and
// what the publisher reads of a failure (never the engine's own words), the registry allow-list,
// the isolation limits, failure reasons, logs, and the platform's API unreachable from a container
// when the runner is on. Skips with how to run it when Podman is missing.
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../reference-app/server/config';
import { listen } from '../../../reference-app/server/server';
import { ContainerEngine, EngineError, networkName, InstanceFactory, limitsFor, LogRing } from '../../../reference-app/server/hosting';
import { FIXTURE_IMAGE } from '../../setup/containerEngine';
import { hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`container engine tests skipped: ${skip}`);

describe.skipIf(skip)('container engine (Podman, docker-registry)', () => {
  const h = useHosting('fixture:1');
  let hostListener: Server;
  let hostPort: number;

  beforeAll(async () => {
    // A TCP service of the host on loopback, standing for the database and the platform's
    // internal origin (PostgreSQL's and the server's default listen addresses).
    hostListener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => hostListener.listen(0, '127.0.0.1', resolve));
    hostPort = (hostListener.address() as { port: number }).port;
  });

  afterAll(() => {
    hostListener?.close();
  });

  const factoryFor = (name: string, overrides: { image?: string; memoryMb?: number; healthPath?: string; logs?: LogRing } = {}) =>
    new InstanceFactory(
      h.t.engine,
      {
        deploymentId: h.t.deploymentId(name),
        image: overrides.image ?? FIXTURE_IMAGE,
        port: 8080,
        limits: limitsFor({ memoryMb: overrides.memoryMb ?? 256 }),
        gpu: 'none',
      },
      { healthPath: overrides.healthPath ?? '/openapi.json', readyTimeoutMs: 10_000, logs: overrides.logs },
    );

  it('pulls only with the right registry credential, and says why not in its own words, never the engine’s', async () => {
    const { image, registry } = h;
    const refused = `Pulling ${image} failed: the registry refused the credential (check the registry credential saved with the service)`;
    const wrong = h.t.engine.pull(image, { username: registry.username, password: 'not-the-password', serveraddress: registry.host });
    await expect(wrong).rejects.toBeInstanceOf(EngineError);
    // Before, the engine's text came through ("unauthorized: authentication required", the
    // registry's address and the engine's HTTP call).
    await expect(wrong).rejects.toThrow(new EngineError('pull', refused));
    // Without a credential the pull is anonymous and says which one is missing (issue 47).
    await expect(h.t.engine.pull(image)).rejects.toThrow(
      new EngineError(
        'pull',
        `Pulling ${image} failed: the registry refused a pull without a credential (save a registry credential for it and choose it for the service)`,
      ),
    );
    await h.t.engine.pull(image, h.auth);
    expect(await h.t.engine.hasImage(image)).toBe(true);
    const missing = `${registry.host}/no-such-image:1`;
    await expect(h.t.engine.pull(missing, h.auth)).rejects.toThrow(
      new EngineError('pull', `Pulling ${missing} failed: the registry has no such image or tag`),
    );
    // A port where nothing listens and one where a host service does answer read the same: the
    // engine's words told them apart ("connection refused" against an HTTP error).
    for (const silent of [`127.0.0.1:1/probe:1`, `127.0.0.1:${hostPort}/probe:1`]) {
      await expect(h.t.engine.pull(silent), silent).rejects.toThrow(
        new EngineError('pull', `Pulling ${silent} failed: the registry did not answer`),
      );
    }
  });

  it('pulls only from the allowed registries: any other is refused before the engine is asked', async () => {
    const engine = ContainerEngine.fromDockerHost(h.t.dockerHost, { registries: [h.registry.host, 'docker.io'] });
    const other = `127.0.0.1:${hostPort}/me/x:1`;
    await expect(engine.pull(other)).rejects.toThrow(
      new EngineError(
        'pull',
        `Pulling ${other} refused: the registry 127.0.0.1:${hostPort} is not one this platform deploys from; push the image to ${h.registry.host}, docker.io`,
      ),
    );
    // The listener would have seen the engine's connection; it saw none (nothing was asked).
    await expect(engine.pull(h.image, h.auth)).resolves.toBeUndefined();
  });

  it('runs the pulled image isolated: no capabilities, no new privileges, limits, read-only root, writable /tmp', async () => {
    const logs = new LogRing();
    const factory = factoryFor('isolated', { image: h.image, logs });
    const { instance, stages } = await factory.acquire();
    expect(Object.keys(stages)).toEqual(['create', 'start', 'ready']);
    const info = await h.t.engine.docker.getContainer(instance.id).inspect();
    expect(info.HostConfig.Privileged).toBe(false);
    // What the process really holds: no effective or bounding capability, no_new_privs set.
    const status = (await (await fetch(`${instance.baseUrl}/fixture/status`)).json()) as Record<string, string>;
    expect(status).toMatchObject({ CapEff: '0000000000000000', CapBnd: '0000000000000000', NoNewPrivs: '1' });
    expect(status.Seccomp).toBe('2');
    expect(info.HostConfig.Memory).toBe(256 * 1024 * 1024);
    expect(info.HostConfig.PidsLimit).toBe(limitsFor().pids);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.NetworkMode).not.toBe('host');

    const write = async (path: string) =>
      (await (await fetch(`${instance.baseUrl}/fixture/write?path=${path}`)).json()) as { writable: boolean };
    expect(await write('/etc-x')).toMatchObject({ writable: false });
    expect(await write('/tmp/x')).toMatchObject({ writable: true });

    const answer = await fetch(`${instance.baseUrl}/greet`, { method: 'POST', body: JSON.stringify({ name: 'Ada' }) });
    expect(await answer.json()).toMatchObject({ text: 'Hello, Ada.' });
    await expect.poll(() => logs.tail(10).map((l) => l.text)).toContain('greeting Ada');
    await factory.discard(instance.id);
  });

  it("has no route to the host's services or any other network", async () => {
    const factory = factoryFor('network');
    const { instance } = await factory.acquire();
    const external = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    const probe = async (host: string) =>
      ((await (await fetch(`${instance.baseUrl}/fixture/probe?host=${host}&port=${hostPort}`)).json()) as { reachable: boolean }).reachable;
    const info = await h.t.engine.docker.getContainer(instance.id).inspect();
    const gateway = Object.values(info.NetworkSettings.Networks)[0]!.Gateway;
    // The host's own addresses as seen from the container: its bridge gateway and its external address.
    for (const host of [gateway, external, '127.0.0.1'].filter(Boolean)) expect(await probe(host!), host).toBe(false);
    // And no route out of the deployment's network at all.
    expect(await probe('192.0.2.200')).toBe(false);
    await factory.discard(instance.id);
  });

  it('a container that exceeds its memory limit is killed, and the reason says so', async () => {
    const factory = factoryFor('memory', { memoryMb: 128 });
    const { instance } = await factory.acquire();
    await fetch(`${instance.baseUrl}/fixture/allocate?mb=400`).catch(() => undefined);
    await expect.poll(async () => (await h.t.engine.state(instance.id))?.running, { timeout: 10_000 }).toBe(false);
    // Out of memory is said only when the engine reports it (OOMKilled); Podman on cgroup v1
    // does not, and then the SIGKILL is named with the limit as the likely cause, not asserted.
    const { oomKilled } = (await h.t.engine.state(instance.id))!;
    expect(await h.t.engine.exitReason(instance.id, 128)).toBe(
      oomKilled
        ? 'The container was killed: it exceeded its memory limit of 128 MB'
        : 'The container was killed (SIGKILL, exit code 137) and the engine did not say why; a process that reaches its memory limit of 128 MB ends this way',
    );
    await factory.discard(instance.id);
  });

  it('a crashing container: exit code and its last log lines', async () => {
    const factory = factoryFor('crash');
    const { instance } = await factory.acquire();
    await fetch(`${instance.baseUrl}/fixture/exit`);
    await expect.poll(async () => (await h.t.engine.state(instance.id))?.running, { timeout: 10_000 }).toBe(false);
    expect(await h.t.engine.exitReason(instance.id, 256)).toBe('The container exited with code 3');
    expect(await h.t.engine.lastLogLines(instance.id)).toContain('exiting on request');
    await factory.discard(instance.id);
  });

  it('a failing health check keeps the instance out, with the reason', async () => {
    const factory = factoryFor('health', { healthPath: '/healthz' });
    await expect(factory.acquire()).rejects.toThrow(/health check failed.*answered 404/);
    await factory.discardSpares();
  });

  // A deploy creates its first instance and its paused spares at once, each asking for the
  // deployment's network. Podman answers the second creation of a name with 500 (Docker: 409);
  // that failed the deploy ("network already exists") while its instance was starting.
  it('the network of a deployment is made once when asked for at the same time, here and by another process', async () => {
    const id = h.t.deploymentId('network-race');
    const other = ContainerEngine.fromDockerHost(h.t.dockerHost); // another server process's engine
    const names = await Promise.all([
      h.t.engine.ensureNetwork(id),
      h.t.engine.ensureNetwork(id),
      other.ensureNetwork(id),
      other.ensureNetwork(id),
    ]);
    expect(names).toEqual(Array(4).fill(networkName(id)));
    const networks = await h.t.engine.docker.listNetworks({ filters: { name: [networkName(id)] } });
    expect(networks.filter((n) => n.Name === networkName(id))).toHaveLength(1);
    // Asked again once it exists: the same network, nothing created.
    await expect(h.t.engine.ensureNetwork(id)).resolves.toBe(networkName(id));
    await h.t.engine.removeDeployment(id);
  });

  it('a network the engine refuses to make is still an error, with its reason', async () => {
    const refused = h.t.engine.ensureNetwork('not a valid/name');
    await expect(refused).rejects.toBeInstanceOf(EngineError);
    // In the platform's words; the engine's own (its validation rule) goes to the runner's log.
    await expect(refused).rejects.toThrow('Creating the deployment’s network failed: the container engine refused it');
  });

  it('the paused pool: a spare is unpaused on demand and nothing is left after discard', async () => {
    const factory = factoryFor('pool');
    await factory.replenish('paused', 1);
    expect(factory.spareIds).toHaveLength(1);
    expect(await h.t.engine.state(factory.spareIds[0]!)).toMatchObject({ paused: true });
    const { instance, stages } = await factory.acquire();
    expect(Object.keys(stages)).toEqual(['unpause', 'ready']);
    const answer = await fetch(`${instance.baseUrl}/greet`, { method: 'POST', body: JSON.stringify({ name: 'Bo' }) });
    expect(await answer.json()).toMatchObject({ text: 'Hello, Bo.' });
    await factory.discard(instance.id);
    await factory.discardSpares();
    await h.t.engine.removeDeployment(h.t.deploymentId('pool'));
    expect(await h.t.engine.containersOf(h.t.deploymentId('pool'))).toEqual([]);
  });

  // Issue 35, finding 7: with the runner on, the platform listens on loopback (HOST defaults to
  // 127.0.0.1), so a container cannot call its API at the bridge's gateway. Before, it listened on
  // every interface, the gateway's address included. The container here is on a routed network
  // (CONTAINER_REACH=published), the one kind with a route to the host at all.
  it('a container cannot reach the platform’s API when the runner is on; a service on every interface it can', async () => {
    const config = loadConfig({ CONTAINER_RUNNER: 'docker', DOCKER_HOST: h.t.dockerHost, PORT: '0' });
    expect(config.host).toBe('127.0.0.1');
    const platform = await listen(0, config.host);
    platform.use((_req, res) => res.end('platform API'));
    const everywhere = await listen(0, '0.0.0.0');
    everywhere.use((_req, res) => res.end('a host service'));
    const routed = ContainerEngine.fromDockerHost(h.t.dockerHost, { reach: 'published' });
    const factory = new InstanceFactory(
      routed,
      {
        deploymentId: h.t.deploymentId('platform-api'),
        image: FIXTURE_IMAGE,
        port: 8080,
        limits: limitsFor({ memoryMb: 256 }),
        gpu: 'none',
      },
      { healthPath: '/openapi.json', readyTimeoutMs: 10_000 },
    );
    try {
      const { instance } = await factory.acquire();
      const info = await routed.docker.getContainer(instance.id).inspect();
      const gateway = Object.values(info.NetworkSettings.Networks)[0]!.Gateway;
      const fetchFrom = async (port: number) =>
        (await (await fetch(`${instance.baseUrl}/fixture/fetch?url=${encodeURIComponent(`http://${gateway}:${port}/`)}`)).json()) as {
          reachable: boolean;
        };
      // The probe works: the host service on every interface answers at the gateway.
      expect(await fetchFrom(everywhere.port)).toMatchObject({ reachable: true, status: 200 });
      expect(await fetchFrom(platform.port)).toMatchObject({ reachable: false });
      await factory.discard(instance.id);
    } finally {
      await factory.discardSpares();
      await routed.removeDeployment(h.t.deploymentId('platform-api'));
      await Promise.all([platform.close(), everywhere.close()]);
    }
  });
});
