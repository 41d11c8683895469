// The runner's GPUs, one owner each (docs/publishing.md, "Resources"): an instance of a GPU
// service holds its own devices from its create to its removal, one that finds none free waits
// (first come, first served) instead of failing or sharing, a spare of the warm pool never waits
// and gives its devices up to an instance that does, and a CDI container is given exactly the
// devices it holds, never `nvidia.com/gpu=all`.
import { describe, expect, it } from 'vitest';
import { GpuAllocator } from '../../../reference-app/server/hosting/gpuAllocator';
import { loadContainerRunnerConfig } from '../../../reference-app/server/hosting/config';
import { isolatedHostConfig, limitsFor } from '../../../reference-app/server/hosting/limits';
import { InstanceFactory } from '../../../reference-app/server/hosting/instances';
import type { ContainerEngine, InstanceSpec } from '../../../reference-app/server/hosting/engine';
import { libpodSpecOf } from '../../../reference-app/server/hosting/libpodCreate';

/** Whether a promise settled within the microtasks and timers of `ms` (it should not have, when waiting). */
const settledWithin = async (promise: Promise<unknown>, ms = 20) => {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, ms));
  return settled;
};

describe('the GPU allocator', () => {
  it('gives each holder its own devices, makes the next wait, and hands the freed one over', async () => {
    const gpus = new GpuAllocator(['0', '1']);
    const a = await gpus.acquire(1);
    const b = await gpus.acquire(1);
    expect([a.devices, b.devices]).toEqual([['0'], ['1']]);
    expect(gpus.available).toEqual([]);

    const waits: string[] = [];
    const third = gpus.acquire(1, { onWait: (m) => waits.push(m) });
    expect(await settledWithin(third)).toBe(false);
    expect(waits).toEqual(["Waiting for 1 GPU: 0 of this runner's 2 free, 1 waiting"]);

    b.release();
    b.release(); // twice is once
    expect((await third).devices).toEqual(['1']);
    expect(gpus.available).toEqual([]);
    a.release();
    expect(gpus.available).toEqual(['0']);
  });

  it('serves waiters in order: a later small request does not overtake an earlier big one', async () => {
    const gpus = new GpuAllocator(['0', '1', '2']);
    const one = await gpus.acquire(2);
    const two = gpus.acquire(2);
    const small = gpus.acquire(1);
    expect(gpus.available).toEqual(['2']);
    expect(await settledWithin(small)).toBe(false);
    one.release();
    expect((await two).devices).toEqual(['0', '1']);
    expect((await small).devices).toEqual(['2']);
  });

  it('refuses a request bigger than the runner at once, and a spare never queues', async () => {
    const gpus = new GpuAllocator(['0', '1']);
    expect(() => gpus.acquire(3)).toThrow('The service asks for 3 GPUs per instance and this runner has 2 (CONTAINER_GPUS=0,1)');
    const held = await gpus.acquire(2);
    expect(gpus.tryAcquire(1)).toBeNull();
    held.release();
    expect(gpus.tryAcquire(1)?.devices).toEqual(['0']);
  });

  it('ends a wait that is aborted, and the next waiter still gets the device', async () => {
    const gpus = new GpuAllocator(['0']);
    const held = await gpus.acquire(1);
    const stop = new AbortController();
    const cancelled = gpus.acquire(1, { signal: stop.signal });
    const next = gpus.acquire(1);
    stop.abort(new Error('stopped by the owner'));
    await expect(cancelled).rejects.toThrow('stopped by the owner');
    held.release();
    expect((await next).devices).toEqual(['0']);
    expect(gpus.waiting).toBe(0);
  });

  it('takes a spare’s devices for a waiting instance: the spare is removed, its device handed over', async () => {
    const gpus = new GpuAllocator(['0']);
    const spare = gpus.tryAcquire(1)!;
    let removed = 0;
    spare.setReclaim(() => {
      removed += 1;
      // The factory removes the container, which releases the devices.
      setTimeout(() => spare.release(), 5);
    });
    const instance = await gpus.acquire(1);
    expect(removed).toBe(1);
    expect(instance.devices).toEqual(['0']);
  });

  it('leaves a spare that went back into service alone', async () => {
    const gpus = new GpuAllocator(['0']);
    const spare = gpus.tryAcquire(1)!;
    let removed = 0;
    spare.setReclaim(() => (removed += 1));
    spare.setReclaim(null); // taken for a job
    const waiting = gpus.acquire(1);
    expect(await settledWithin(waiting)).toBe(false);
    expect(removed).toBe(0);
    spare.release();
    expect((await waiting).devices).toEqual(['0']);
  });
});

describe('a container’s GPUs', () => {
  it('are the CDI devices it holds, never all of them', () => {
    const config = isolatedHostConfig({ limits: limitsFor({ gpu: 2 }), network: 'n', gpu: 'cdi', gpuDevices: ['1', '3'] });
    expect(config.Devices).toEqual([
      { PathOnHost: 'nvidia.com/gpu=1', PathInContainer: '', CgroupPermissions: '' },
      { PathOnHost: 'nvidia.com/gpu=3', PathInContainer: '', CgroupPermissions: '' },
    ]);
    expect(() => isolatedHostConfig({ limits: limitsFor({ gpu: 1 }), network: 'n', gpu: 'cdi' })).toThrow(/never all of them/);
    expect(isolatedHostConfig({ limits: limitsFor({ gpu: 1 }), network: 'n', gpu: 'docker', gpuDevices: ['2'] })).toMatchObject({
      DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: ['2'] }],
    });
  });

  it('go through Podman’s own API with every isolation setting translated, and an unknown setting refused', () => {
    const hostConfig = isolatedHostConfig({
      limits: limitsFor({ gpu: 1, memoryMb: 256, cpu: 0.5 }),
      network: 'limelight-x',
      gpu: 'cdi',
      gpuDevices: ['1'],
      userns: 'auto',
      imageVolumes: ['/data'],
    });
    const body = {
      Image: 'img@sha256:1',
      Env: ['PORT=8080', 'A=b=c'],
      ExposedPorts: { '8080/tcp': {} },
      Labels: { l: 'v' },
      HostConfig: hostConfig,
    };
    const spec = libpodSpecOf(body);
    expect(spec).toMatchObject({
      image: 'img@sha256:1',
      env: { PORT: '8080', A: 'b=c' },
      labels: { l: 'v' },
      privileged: false,
      cap_drop: ['ALL'],
      cap_add: [],
      no_new_privileges: true,
      read_only_filesystem: true,
      resource_limits: {
        memory: { limit: 256 * 2 ** 20, swap: 256 * 2 ** 20 },
        cpu: { quota: 50_000, period: 100_000 },
        pids: { limit: 512 },
      },
      netns: { nsmode: 'bridge' },
      networks: { 'limelight-x': {} },
      restart_policy: 'no',
      log_configuration: { driver: 'k8s-file', size: 10 * 2 ** 20 },
      userns: { nsmode: 'auto' },
      expose: { 8080: 'tcp' },
      devices: [{ path: 'nvidia.com/gpu=1' }],
    });
    const mounts = spec.mounts as { destination: string; options: string[] }[];
    expect(mounts.map((m) => m.destination).sort()).toEqual(['/data', '/dev/shm', '/run', '/tmp', '/var/tmp']);
    expect(mounts.find((m) => m.destination === '/tmp')!.options).toEqual(['rw', 'noexec', 'nosuid', 'nodev', 'size=64m']);
    expect(() => libpodSpecOf({ ...body, HostConfig: { ...hostConfig, OomKillDisable: true } })).toThrow(/HostConfig.OomKillDisable/);
    expect(() => libpodSpecOf({ ...body, HostConfig: { ...hostConfig, SecurityOpt: ['seccomp=unconfined'] } })).toThrow(
      /seccomp=unconfined/,
    );
  });

  it('come from CONTAINER_GPUS, which CONTAINER_GPU=cdi needs', () => {
    const env = { CONTAINER_RUNNER: 'docker', CONTAINER_USERNS: 'host' };
    expect(loadContainerRunnerConfig({ ...env, CONTAINER_GPU: 'cdi', CONTAINER_GPUS: '0, 1' })).toMatchObject({
      gpu: 'cdi',
      gpuDevices: ['0', '1'],
    });
    expect(() => loadContainerRunnerConfig({ ...env, CONTAINER_GPU: 'cdi' })).toThrow(/CONTAINER_GPUS is required with CONTAINER_GPU=cdi/);
    expect(() => loadContainerRunnerConfig({ ...env, CONTAINER_GPU: 'cdi', CONTAINER_GPUS: '0,0' })).toThrow(/each GPU named once/);
    expect(() => loadContainerRunnerConfig({ ...env, CONTAINER_GPU: 'cdi', CONTAINER_GPUS: '0,all;rm' })).toThrow(/CONTAINER_GPUS/);
    expect(loadContainerRunnerConfig(env)).toMatchObject({ gpu: 'none', gpuDevices: [] });
  });
});

/** An engine that records what each create asked for; containers are ids c1, c2, ... */
function recordingEngine() {
  const created: InstanceSpec[] = [];
  const removed: string[] = [];
  const engine = {
    async create(spec: InstanceSpec) {
      created.push(spec);
      return `c${created.length}`;
    },
    async remove(id: string) {
      removed.push(id);
    },
    async start() {},
    async pause() {},
    async exitReason() {
      return null;
    },
    async baseUrl() {
      return 'http://127.0.0.1:9';
    },
  } as unknown as ContainerEngine;
  return { engine, created, removed };
}

describe('the instance factory with GPUs', () => {
  const spec: InstanceSpec = { deploymentId: 'd', image: 'img@sha256:1', port: 8080, limits: limitsFor({ gpu: 1 }), gpu: 'cdi' };

  it('creates each container with its own device, frees it on removal, and makes no spare without a free one', async () => {
    const gpus = new GpuAllocator(['0', '1']);
    const { engine, created } = recordingEngine();
    const factory = new InstanceFactory(engine, spec, { healthPath: '/', readyTimeoutMs: 1000, gpus });
    // A `created` spare: it takes a free device, none when none is free.
    await factory.replenish('created', 1);
    await factory.replenish('created', 2);
    await factory.replenish('created', 3);
    expect(created.map((c) => c.gpuDevices)).toEqual([['0'], ['1']]);
    expect(factory.spareIds).toEqual(['c1', 'c2']);
    await factory.discardSpares();
    expect(gpus.available).toEqual(['0', '1']);
  });

  it('removes a spare when another deployment’s instance waits for its device', async () => {
    const gpus = new GpuAllocator(['0']);
    const a = recordingEngine();
    const withSpare = new InstanceFactory(a.engine, spec, { healthPath: '/', readyTimeoutMs: 1000, gpus });
    await withSpare.replenish('created', 1);
    expect(withSpare.spareIds).toEqual(['c1']);

    const b = recordingEngine();
    const waiting = new InstanceFactory(b.engine, { ...spec, deploymentId: 'e' }, { healthPath: '/', readyTimeoutMs: 1000, gpus });
    const made = waiting.replenish('created', 1).then(() => waiting.spareIds);
    // The other factory's spare was made without waiting: this one only gets it once the spare is
    // gone. A spare never queues, so drive an instance's create through acquire() instead.
    expect(await made).toEqual([]);
    const acquired = waiting.acquire().catch((e: unknown) => e);
    await expect.poll(() => a.removed).toEqual(['c1']);
    await acquired; // no HTTP here: readiness fails, which is not what this test is about
    expect(b.created.map((c) => c.gpuDevices)).toEqual([['0']]);
    await waiting.discardSpares();
    await withSpare.discardSpares();
  });

  it('stops waiting for a GPU when the deployment stops', async () => {
    const gpus = new GpuAllocator(['0']);
    const held = await gpus.acquire(1);
    const { engine, created } = recordingEngine();
    const factory = new InstanceFactory(engine, spec, { healthPath: '/', readyTimeoutMs: 1000, gpus });
    const acquiring = factory.acquire();
    expect(await settledWithin(acquiring)).toBe(false);
    await factory.discardSpares();
    await expect(acquiring).rejects.toThrow('The deployment stopped while an instance waited for a GPU');
    expect(created).toEqual([]);
    held.release();
    expect(gpus.available).toEqual(['0']);
  });
});
