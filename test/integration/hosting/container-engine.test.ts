// The container engine adapter against the real engine (Podman's Docker API) and a real
// registry (docker-registry with htpasswd auth): pulls with and without the right credential,
// the isolation limits, failure reasons, logs. Skips with how to run it when Podman is missing.
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryUnavailableReason, startRegistry, type TestRegistry } from '../../../scripts/registry.mjs';
import { ContainerEngine, EngineError, networkName } from '../../../reference-app/server/runtimes/container/engine';
import { InstanceFactory } from '../../../reference-app/server/runtimes/container/instances';
import { limitsForGpu } from '../../../reference-app/server/runtimes/container/limits';
import { LogRing } from '../../../reference-app/server/runtimes/container/logRing';
import { engineSkipReason, FIXTURE_IMAGE, pushFixture, startTestEngine, type TestEngine } from '../../setup/containerEngine';

const skip = engineSkipReason() ?? registryUnavailableReason();
if (skip) console.warn(`container engine tests skipped: ${skip}`);

describe.skipIf(skip)('container engine (Podman, docker-registry)', () => {
  let t: TestEngine;
  let registry: TestRegistry;
  let image: string;
  let hostListener: Server;
  let hostPort: number;

  beforeAll(async () => {
    t = await startTestEngine();
    registry = await startRegistry();
    image = pushFixture(registry, 'fixture:1');
    // A TCP service of the host on loopback, standing for the database and the platform's
    // internal origin (PostgreSQL's and the server's default listen addresses).
    hostListener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => hostListener.listen(0, '127.0.0.1', resolve));
    hostPort = (hostListener.address() as { port: number }).port;
  }, 120_000);

  afterAll(async () => {
    hostListener?.close();
    await t?.engine.docker
      .getImage(image)
      .remove()
      .catch(() => undefined);
    await registry?.stop();
    if (t) {
      await t.stop();
    }
  }, 60_000);

  const factoryFor = (name: string, overrides: { image?: string; memoryMb?: number; healthPath?: string; logs?: LogRing } = {}) =>
    new InstanceFactory(
      t.engine,
      {
        deploymentId: t.deploymentId(name),
        image: overrides.image ?? FIXTURE_IMAGE,
        port: 8080,
        limits: limitsForGpu(16, overrides.memoryMb ?? 256),
        gpu: 'none',
      },
      { healthPath: overrides.healthPath ?? '/openapi.json', readyTimeoutMs: 10_000, logs: overrides.logs },
    );

  it('pulls only with the right registry credential, and says why not', async () => {
    const wrong = t.engine.pull(image, { username: registry.username, password: 'not-the-password', serveraddress: registry.host });
    await expect(wrong).rejects.toThrow(/unauthorized|authentication required/);
    await expect(wrong).rejects.toBeInstanceOf(EngineError);
    await expect(t.engine.pull(image)).rejects.toThrow(/unauthorized|authentication required/);
    await t.engine.pull(image, { username: registry.username, password: registry.password, serveraddress: registry.host });
    expect(await t.engine.hasImage(image)).toBe(true);
    await expect(
      t.engine.pull(`${registry.host}/no-such-image:1`, {
        username: registry.username,
        password: registry.password,
        serveraddress: registry.host,
      }),
    ).rejects.toThrow(/Pulling .*no-such-image.* failed/);
  });

  it('runs the pulled image isolated: no capabilities, no new privileges, limits, read-only root, writable /tmp', async () => {
    const logs = new LogRing();
    const factory = factoryFor('isolated', { image, logs });
    const { instance, stages } = await factory.acquire();
    expect(Object.keys(stages)).toEqual(['create', 'start', 'ready']);
    const info = await t.engine.docker.getContainer(instance.id).inspect();
    expect(info.HostConfig.Privileged).toBe(false);
    // What the process really holds: no effective or bounding capability, no_new_privs set.
    const status = (await (await fetch(`${instance.baseUrl}/fixture/status`)).json()) as Record<string, string>;
    expect(status).toMatchObject({ CapEff: '0000000000000000', CapBnd: '0000000000000000', NoNewPrivs: '1' });
    expect(status.Seccomp).toBe('2');
    expect(info.HostConfig.Memory).toBe(256 * 1024 * 1024);
    expect(info.HostConfig.PidsLimit).toBe(limitsForGpu(16).pids);
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
    const info = await t.engine.docker.getContainer(instance.id).inspect();
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
    await expect.poll(async () => (await t.engine.state(instance.id))?.running, { timeout: 10_000 }).toBe(false);
    // Out of memory is said only when the engine reports it (OOMKilled); Podman on cgroup v1
    // does not, and then the SIGKILL is named with the limit as the likely cause, not asserted.
    const { oomKilled } = (await t.engine.state(instance.id))!;
    expect(await t.engine.exitReason(instance.id, 128)).toBe(
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
    await expect.poll(async () => (await t.engine.state(instance.id))?.running, { timeout: 10_000 }).toBe(false);
    expect(await t.engine.exitReason(instance.id, 256)).toBe('The container exited with code 3');
    expect(await t.engine.lastLogLines(instance.id)).toContain('exiting on request');
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
    const id = t.deploymentId('network-race');
    const other = ContainerEngine.fromDockerHost(t.dockerHost); // another server process's engine
    const names = await Promise.all([
      t.engine.ensureNetwork(id),
      t.engine.ensureNetwork(id),
      other.ensureNetwork(id),
      other.ensureNetwork(id),
    ]);
    expect(names).toEqual(Array(4).fill(networkName(id)));
    const networks = await t.engine.docker.listNetworks({ filters: { name: [networkName(id)] } });
    expect(networks.filter((n) => n.Name === networkName(id))).toHaveLength(1);
    // Asked again once it exists: the same network, nothing created.
    await expect(t.engine.ensureNetwork(id)).resolves.toBe(networkName(id));
    await t.engine.removeDeployment(id);
  });

  it('a network the engine refuses to make is still an error, with its reason', async () => {
    const refused = t.engine.ensureNetwork('not a valid/name');
    await expect(refused).rejects.toBeInstanceOf(EngineError);
    await expect(refused).rejects.toThrow(/name/i);
  });

  it('the paused pool: a spare is unpaused on demand and nothing is left after discard', async () => {
    const factory = factoryFor('pool');
    await factory.replenish('paused', 1);
    expect(factory.spareIds).toHaveLength(1);
    expect(await t.engine.state(factory.spareIds[0]!)).toMatchObject({ paused: true });
    const { instance, stages } = await factory.acquire();
    expect(Object.keys(stages)).toEqual(['unpause', 'ready']);
    const answer = await fetch(`${instance.baseUrl}/greet`, { method: 'POST', body: JSON.stringify({ name: 'Bo' }) });
    expect(await answer.json()).toMatchObject({ text: 'Hello, Bo.' });
    await factory.discard(instance.id);
    await factory.discardSpares();
    await t.engine.removeDeployment(t.deploymentId('pool'));
    expect(await t.engine.containersOf(t.deploymentId('pool'))).toEqual([]);
  });
});
