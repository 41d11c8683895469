// Defaults that hold on an ordinary host (issue 47): a container service's instances are sized by
// the resources it declares (docs/publishing.md, "Resources"), never by its GPU offer, so a CPU
// service on a GPU-less 23 GB machine runs several instances, the paused pool and a rolling
// update; and user namespaces are on wherever the host has the subordinate id range
// (docs/security.md, "User namespaces").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostCapacity, CONTAINER_MEMORY_SHARE } from '../../../reference-app/server/hosting/capacity';
import { DEFAULT_RESOURCES, resourcesOfRow } from '../../../reference-app/server/hosting/contract';
import { DockerFleet } from '../../../reference-app/server/hosting/dockerFleet';
import { EngineError, type ContainerEngine, type InstanceSpec } from '../../../reference-app/server/hosting/engine';
import type { ContainerSpec } from '../../../reference-app/server/hosting/fleet';
import { InstanceFactory } from '../../../reference-app/server/hosting/instances';
import { revisionOf } from '../../../reference-app/server/hosting/leasedFleet';
import { isolatedHostConfig, limitsFor } from '../../../reference-app/server/hosting/limits';
import { RuntimeInputSchema } from '../../../reference-app/server/publishing/schemas';
import { hasSubordinateIds, loadContainerRunnerConfig, SUBORDINATE_ID_ENTRY } from '../../../reference-app/server/hosting/config';

const container = (resources?: unknown) => ({
  type: 'container',
  image: 'docker.io/me/sketch:1',
  gpu: 'runpod-a4000-16',
  min_instances: 0,
  max_instances: 2,
  idle_timeout_s: 60,
  ...(resources === undefined ? {} : { resources }),
});

/** The first issue's message for a runtime input, or null when it is valid. */
const problemOf = (resources: unknown): string | null => {
  const parsed = RuntimeInputSchema.safeParse(container(resources));
  return parsed.success ? null : `${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message}`;
};

describe('a service declares its resources', () => {
  it('defaults fit a CPU service: 1 CPU, 1 GB, no GPU', () => {
    expect(DEFAULT_RESOURCES).toEqual({ cpu: 1, memoryMb: 1024, gpu: 0 });
    expect(limitsFor()).toEqual({ memoryMb: 1024, cpus: 1, pids: 512 });
    // Rows saved before migration 018 have none: they read as the defaults.
    expect(resourcesOfRow({ cpu: null, memory_mb: null, gpu_count: null })).toEqual(DEFAULT_RESOURCES);
    expect(resourcesOfRow({ cpu: 2, memory_mb: 4096, gpu_count: 1 })).toEqual({ cpu: 2, memoryMb: 4096, gpu: 1 });
  });

  it('accepts CPU, memory and GPU within range, each optional', () => {
    expect(problemOf(undefined)).toBeNull();
    expect(problemOf({})).toBeNull();
    expect(problemOf({ cpu: 0.5, memory_mb: 256, gpu: 0 })).toBeNull();
    expect(problemOf({ cpu: 0.3 })).toBeNull();
    expect(problemOf({ cpu: 32, memory_mb: 262_144, gpu: 8 })).toBeNull();
  });

  it('refuses bad values with a message naming the field and the range', () => {
    expect(problemOf({ memory_mb: 10 })).toBe('resources.memory_mb: must be between 64 and 262144 MB');
    expect(problemOf({ memory_mb: 1000.5 })).toBe('resources.memory_mb: must be a whole number of megabytes');
    expect(problemOf({ memory_mb: '1GB' })).toBe('resources.memory_mb: must be a number of megabytes, such as 1024');
    expect(problemOf({ cpu: 0 })).toBe('resources.cpu: must be between 0.1 and 32 CPUs');
    expect(problemOf({ cpu: 64 })).toBe('resources.cpu: must be between 0.1 and 32 CPUs');
    expect(problemOf({ cpu: 0.25 })).toBe('resources.cpu: must be in steps of 0.1 CPU');
    expect(problemOf({ gpu: 1.5 })).toBe('resources.gpu: must be a whole number of GPUs');
    expect(problemOf({ gpu: 9 })).toBe('resources.gpu: must be between 0 and 8 GPUs');
    expect(problemOf({ memory: 512 })).toMatch(/^resources: .*memory/);
  });

  it('a change of resources is a new revision (it rolls the deployment); absent ones equal the defaults', () => {
    const spec: ContainerSpec = { serviceId: 's', image: 'i', gpu: 'g', minInstances: 0, maxInstances: 1, idleTimeoutS: 60 };
    expect(revisionOf({ ...spec, resources: { cpu: 1, memoryMb: 1024, gpu: 0 } })).toBe(revisionOf(spec));
    expect(revisionOf({ ...spec, resources: { memoryMb: 512 } })).not.toBe(revisionOf(spec));
    expect(revisionOf({ ...spec, resources: { cpu: 2 } })).not.toBe(revisionOf(spec));
  });

  it('a GPU is requested only when the service declares one, however the host offers it', () => {
    expect(isolatedHostConfig({ limits: limitsFor(), network: 'n', gpu: 'docker' })).not.toHaveProperty('DeviceRequests');
    expect(isolatedHostConfig({ limits: limitsFor(), network: 'n', gpu: 'cdi' })).not.toHaveProperty('Devices');
    expect(isolatedHostConfig({ limits: limitsFor({ gpu: 2 }), network: 'n', gpu: 'docker' })).toMatchObject({
      DeviceRequests: [{ Driver: 'nvidia', Count: 2 }],
    });
  });

  it('a service that needs a GPU on a runner without one fails with the reason, before any container', async () => {
    const engine = {} as ContainerEngine; // nothing may be asked of it
    const factory = new InstanceFactory(
      engine,
      { deploymentId: 'd', image: 'i', port: 8080, limits: limitsFor({ gpu: 1 }), gpu: 'none' },
      { healthPath: '/', readyTimeoutMs: 1000 },
    );
    await expect(factory.acquire()).rejects.toThrow(/asks for 1 GPU per instance and this runner has none \(CONTAINER_GPU is not set\)/);
  });

  it('on a 23 GB host the defaults fit several instances, the paused pool and a rolling update', () => {
    // The runner's measured capacity on this project's 23 GB machine (capacity.ts).
    const capacity = new HostCapacity({ memoryMb: Math.floor(23 * 1024 * CONTAINER_MEMORY_SHARE), cpus: 2 });
    const perInstance = capacity.cap(limitsFor()).memoryMb;
    // Two running, one paused spare, two of the next revision and its spare: six at once.
    for (let i = 0; i < 6; i += 1) capacity.reserve(perInstance);
    expect(capacity.reservedMb).toBe(6 * 1024);
  });
});

/** An engine that records what the runner asks it to create, and creates nothing. */
function recordingEngine(created: InstanceSpec[]): ContainerEngine {
  const known: Partial<ContainerEngine> = {
    userns: 'host',
    checkSandbox: async () => undefined,
    pull: async () => undefined,
    resolvePulled: async (image: string) => ({ reference: image, sizeMb: 1, volumes: [] }),
    create: async (spec: InstanceSpec) => {
      created.push(spec);
      throw new EngineError('create', 'recorded');
    },
  };
  return new Proxy(known, {
    get: (target, key) => (key in target ? target[key as keyof typeof target] : async () => undefined),
  }) as ContainerEngine;
}

describe('the runner sizes a deployment from its resources, not its GPU offer', () => {
  const deployAndRecord = async (spec: Partial<ContainerSpec>, options: { memoryCapMb?: number } = {}) => {
    const created: InstanceSpec[] = [];
    const fleet = new DockerFleet({ engine: recordingEngine(created), capacityMb: 20_000, warm: 'none', ...options });
    await fleet.deploy({
      serviceId: 'svc',
      image: 'i',
      gpu: 'runpod-a4000-16',
      minInstances: 1,
      maxInstances: 1,
      idleTimeoutS: 60,
      ...spec,
    });
    await expect.poll(() => created.length).toBeGreaterThan(0);
    await fleet.close();
    return created[0]!.limits;
  };

  it('an A4000 offer with no resources declared gets the defaults, not the offer’s 16 GB', async () => {
    expect(await deployAndRecord({})).toEqual({ memoryMb: 1024, cpus: 1, pids: 512 });
  });

  it('declared resources are the limits; CONTAINER_MEMORY_MB still caps them', async () => {
    expect(await deployAndRecord({ resources: { cpu: 0.5, memoryMb: 256, gpu: 0 } })).toEqual({ memoryMb: 256, cpus: 0.5, pids: 512 });
    expect((await deployAndRecord({ resources: { memoryMb: 4096 } }, { memoryCapMb: 512 })).memoryMb).toBe(512);
  });
});

describe('user namespaces by default', () => {
  const runner = { CONTAINER_RUNNER: 'docker' };

  it('are on where the host has the subordinate id range, without a warning', () => {
    const config = loadContainerRunnerConfig(runner, { subordinateIds: () => true });
    expect(config).toMatchObject({ userns: 'auto' });
    expect(config?.usernsWarning).toBeUndefined();
  });

  it('are off on a host without the range, with a warning that names the fix', () => {
    const config = loadContainerRunnerConfig(runner, { subordinateIds: () => false });
    expect(config?.userns).toBe('host');
    expect(config?.usernsWarning).toContain("a container's root is the host's root");
    expect(config?.usernsWarning).toContain(`add "${SUBORDINATE_ID_ENTRY}" to /etc/subuid and /etc/subgid`);
  });

  it('CONTAINER_USERNS=host is the operator’s choice (no warning); auto without the range warns that creates will fail', () => {
    const host = loadContainerRunnerConfig({ ...runner, CONTAINER_USERNS: 'host' }, { subordinateIds: () => true });
    expect(host).toMatchObject({ userns: 'host' });
    expect(host?.usernsWarning).toBeUndefined();
    const auto = loadContainerRunnerConfig({ ...runner, CONTAINER_USERNS: 'auto' }, { subordinateIds: () => false });
    expect(auto).toMatchObject({ userns: 'auto' });
    expect(auto?.usernsWarning).toMatch(/every container create will fail until you add/);
    expect(() => loadContainerRunnerConfig({ ...runner, CONTAINER_USERNS: 'keep-id' })).toThrow(/CONTAINER_USERNS/);
  });

  it('a runner on Docker with user namespaces on refuses to start, naming the fix; on Podman it starts', async () => {
    const engineOf = (name: string) =>
      ({
        userns: 'auto',
        checkSandbox: async () => undefined,
        docker: { version: async () => ({ Components: [{ Name: name }] }) },
      }) as unknown as ContainerEngine;
    await expect(new DockerFleet({ engine: engineOf('Engine') }).prepare()).rejects.toThrow(
      /need Podman; on Docker set "userns-remap" in daemon.json and CONTAINER_USERNS=host/,
    );
    await expect(new DockerFleet({ engine: engineOf('Podman Engine') }).prepare()).resolves.toBeUndefined();
  });

  it('reads the range from /etc/subuid and /etc/subgid: both must name the user "containers"', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'limelight-subid-'));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const withRange = file('subuid', `root:100000:65536\n${SUBORDINATE_ID_ENTRY}\n`);
    const without = file('subgid', 'root:100000:65536\n');
    expect(hasSubordinateIds([withRange, withRange])).toBe(true);
    expect(hasSubordinateIds([withRange, without])).toBe(false);
    expect(hasSubordinateIds([withRange, path.join(dir, 'missing')])).toBe(false);
  });
});
