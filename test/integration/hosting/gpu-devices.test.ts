// Each instance of a GPU service gets its own devices through CDI, never all of them, and an
// instance that finds none free waits (docs/publishing.md, "Resources"). This host has no GPU, so
// the test gives Podman a CDI specification of stand-in devices, nvidia.com/gpu=0 and =1, each of
// which only sets STAND_IN_GPU=<index> in the container (scripts/engine.mjs runs the service with
// those specifications only). A service of one GPU per instance and one job per instance: two
// instances report different indices, and a third job waits until one is free, then runs on the
// freed device. Skips with how to run it when Podman or the registry is missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPodmanService } from '../../../scripts/engine.mjs';
import { buildFixtureImage } from '../../../scripts/fixture-image.mjs';
import { startRegistry, type TestRegistry } from '../../../scripts/registry.mjs';
import { Deployment, type InstanceSlot, ContainerEngine, GpuAllocator, limitsFor } from '../../../reference-app/server/hosting';
import { FIXTURE_IMAGE, pushImage } from '../../setup/containerEngine';
import { hostingSkipReason } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`GPU device tests skipped: ${skip}`);

/** Two stand-in GPUs in the NVIDIA Container Toolkit's CDI form, without device nodes. */
const STAND_IN_SPEC = {
  cdiVersion: '0.5.0',
  kind: 'nvidia.com/gpu',
  devices: ['0', '1'].map((index) => ({ name: index, containerEdits: { env: [`STAND_IN_GPU=${index}`] } })),
};

const standIn = async (slot: InstanceSlot): Promise<string | null> => {
  const res = await fetch(`${slot.baseUrl}/fixture/env?name=STAND_IN_GPU`);
  return ((await res.json()) as { value: string | null }).value;
};

describe.skipIf(skip)('GPUs per instance through CDI (Podman, stand-in devices)', () => {
  let dir: string;
  let service: Awaited<ReturnType<typeof startPodmanService>>;
  let registry: TestRegistry;
  let engine: ContainerEngine;
  let image: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'limelight-gpu-'));
    const specs = path.join(dir, 'cdi');
    mkdirSync(specs);
    writeFileSync(path.join(specs, 'stand-in-gpus.json'), JSON.stringify(STAND_IN_SPEC));
    service = await startPodmanService(path.join(dir, 'podman.sock'), { cdiSpecDir: specs });
    buildFixtureImage();
    registry = await startRegistry();
    image = pushImage(registry, FIXTURE_IMAGE, 'gpu-fixture:1');
    engine = ContainerEngine.fromDockerHost(service.dockerHost, {});
  }, 180_000);

  afterAll(async () => {
    await engine?.docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
    await registry?.stop();
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('gives two instances different devices; a third job waits for one, then runs on the freed device', { timeout: 120_000 }, async () => {
    const gpus = new GpuAllocator(['0', '1']);
    const id = `tgpu${process.pid}-${Date.now().toString(36)}`;
    const deployment = new Deployment(
      engine,
      {
        id,
        image,
        auth: { username: registry.username, password: registry.password, serveraddress: registry.host },
        port: 8080,
        healthPath: '/openapi.json',
        instance: { limits: limitsFor({ memoryMb: 128, gpu: 1 }), gpu: 'cdi' },
        minInstances: 0,
        maxInstances: 3,
        idleTimeoutS: 60,
        concurrency: 1,
      },
      { gpus, readyTimeoutMs: 20_000 },
    );
    try {
      expect(await deployment.deploy()).toMatchObject({ status: 'running', instances: 1 });

      const first = await deployment.acquire();
      const second = await deployment.acquire();
      expect(second.instance).not.toBe(first.instance);
      const indices = [await standIn(first), await standIn(second)];
      expect(indices.sort()).toEqual(['0', '1']);
      expect(gpus.available).toEqual([]);

      // Made through Podman's own API (libpodCreate.ts), with the isolation every container has
      // (docs/publishing.md, "Isolation"): read from inside, as the hostile-publisher tests do.
      const inside = await (await fetch(`${first.baseUrl}/fixture/status`)).json();
      expect(inside).toMatchObject({ CapEff: '0000000000000000', CapBnd: '0000000000000000', NoNewPrivs: '1', Seccomp: '2' });
      const write = async (at: string) =>
        ((await (await fetch(`${first.baseUrl}/fixture/write?path=${at}`)).json()) as { writable: boolean }).writable;
      expect([await write('/x'), await write('/tmp/x')]).toEqual([false, true]);
      const [container] = await engine.containersOf(id);
      const info = await engine.docker.getContainer(container!).inspect();
      expect(info.HostConfig).toMatchObject({
        ReadonlyRootfs: true,
        Memory: 128 * 2 ** 20,
        MemorySwap: 128 * 2 ** 20,
        PidsLimit: 512,
        NanoCpus: 1e9,
      });
      expect(Object.keys(info.NetworkSettings.Networks)).toEqual([`limelight-${id}`]);

      // Both devices are held and each instance takes one job: the third waits, no instance shares.
      let third: InstanceSlot | undefined;
      const waiting = deployment.acquire().then((slot) => (third = slot));
      await new Promise((r) => setTimeout(r, 2000));
      expect(third).toBeUndefined();
      expect(deployment.status.instances).toBe(2);
      await expect
        .poll(() => deployment.logs.tail(200).some((l) => /^Waiting for 1 GPU: 0 of this runner's 2 free/.test(l.text)))
        .toBe(true);

      const freed = await standIn(first);
      first.release();
      await waiting;
      expect(third!.instance).toBe(first.instance);
      expect(await standIn(third!)).toBe(freed);
      second.release();
      third!.release();
    } finally {
      await deployment.stop();
    }
    expect(await engine.containersOf(id)).toEqual([]);
    // Every device is back: the instance that still waited for one gave up when the deployment stopped.
    expect(gpus.available).toEqual(['0', '1']);
    expect(gpus.waiting).toBe(0);
  });
});
