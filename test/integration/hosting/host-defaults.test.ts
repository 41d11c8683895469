// Defaults that hold on an ordinary host (issue 47), on the real engine (Podman's Docker API): a
// runner configured with nothing but CONTAINER_RUNNER and DOCKER_HOST sizes each instance by the
// resources its service declares, not by its GPU offer (an A4000 reserved 16 GB per instance, so
// one instance filled a 23 GB machine), so several instances, the paused pool and a rolling update
// fit side by side; and the container's root is not the host's where the host has the subordinate
// id range. Skips with how to run it when Podman is missing.
import { afterAll, describe, expect, it } from 'vitest';
import {
  DockerFleet,
  ContainerEngine,
  DEPLOYMENT_LABEL,
  hasSubordinateIds,
  loadContainerRunnerConfig,
} from '../../../reference-app/server/hosting';
import { containerSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`host defaults tests skipped: ${skip}`);

describe.skipIf(skip)('a runner with default settings on this host (Podman)', () => {
  const h = useHosting('defaults:1');
  let fleet: DockerFleet | undefined;
  afterAll(async () => {
    await fleet?.close();
  }, 60_000);

  /** The runner exactly as createContainerHosting builds it from the environment (containerHosting.ts). */
  const defaultFleet = () => {
    const config = loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', DOCKER_HOST: h.t.dockerHost })!;
    const engine = ContainerEngine.fromDockerHost(config.dockerHost, {
      reach: config.reach,
      sandbox: config.sandbox,
      userns: config.userns,
    });
    return {
      config,
      fleet: new DockerFleet({
        engine,
        warm: config.warm,
        memoryCapMb: config.memoryCapMb,
        gpu: config.gpu,
        capacityMb: config.capacityMb,
        pullTimeoutMs: config.pullTimeoutMs,
      }),
    };
  };

  const containersOf = async (serviceId: string) => {
    const list = await h.t.engine.docker.listContainers({ all: true, filters: { label: [`${DEPLOYMENT_LABEL}=${serviceId}`] } });
    return Promise.all(list.map((c) => h.t.engine.docker.getContainer(c.Id).inspect()));
  };

  it('runs several instances, the paused pool and a rolling update of a 256 MB service with an A4000 offer', async () => {
    const made = defaultFleet();
    fleet = made.fleet;
    expect(made.config).toMatchObject({ memoryCapMb: undefined, capacityMb: undefined, warm: 'paused' });
    if (hasSubordinateIds()) expect(made.config.userns).toBe('auto');
    await fleet.prepare();

    const spec = containerSpec(h, 'several', {
      gpu: 'runpod-a4000-16',
      minInstances: 2,
      maxInstances: 4,
      resources: { cpu: 0.5, memoryMb: 256, gpu: 0 },
    });
    await fleet.deploy(spec);
    await expect.poll(async () => (await fleet!.status(spec.serviceId)).instances, { timeout: 90_000, interval: 250 }).toBe(2);
    // Two running and one paused spare, each limited (and reserved) at the declared 256 MB and 0.5 CPU.
    await expect.poll(async () => (await containersOf(spec.serviceId)).filter((c) => c.State.Paused).length, { timeout: 30_000 }).toBe(1);
    const first = await containersOf(spec.serviceId);
    expect(first).toHaveLength(3);
    for (const c of first) {
      expect(c.HostConfig.Memory).toBe(256 * 2 ** 20);
      expect(c.HostConfig.NanoCpus).toBe(0.5e9);
    }
    const report = await fleet.status(spec.serviceId);
    expect(report).toMatchObject({ status: 'running', message: 'Healthy' });
    if (hasSubordinateIds()) {
      // User namespaces by default: the container's uid 0 is an unprivileged uid of the host.
      const baseUrl = await fleet.instanceUrl(spec.serviceId, { signal: AbortSignal.timeout(10_000) });
      const { uid_map } = (await (await fetch(`${baseUrl}/fixture/mounts`)).json()) as { uid_map: string };
      const [inside, outside] = uid_map.trim().split(/\s+/).map(Number);
      expect(inside).toBe(0);
      expect(outside).toBeGreaterThan(0);
    }

    // The rolling update starts and completes: the new revision (320 MB) is healthy before the old goes.
    await fleet.deploy({ ...spec, resources: { cpu: 0.5, memoryMb: 320, gpu: 0 } });
    await expect
      .poll(
        async () => {
          const now = await containersOf(spec.serviceId);
          return now.filter((c) => c.State.Running && !c.State.Paused && c.HostConfig.Memory === 320 * 2 ** 20).length;
        },
        { timeout: 90_000, interval: 250 },
      )
      .toBe(2);
    await expect
      .poll(async () => (await containersOf(spec.serviceId)).filter((c) => c.HostConfig.Memory === 256 * 2 ** 20).length, {
        timeout: 30_000,
      })
      .toBe(0);
    expect(await fleet.status(spec.serviceId)).toMatchObject({ status: 'running', message: 'Healthy', instances: 2 });

    await fleet.stop(spec.serviceId);
    expect(await containersOf(spec.serviceId)).toEqual([]);
  }, 240_000);
});
