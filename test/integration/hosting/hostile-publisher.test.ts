// A publisher attacking the host through its own image (issue 35), on the real engine (Podman's
// Docker API) and a real htpasswd registry: the host disk (log size, image volumes, scratch
// space, image size), capacity, images run only as pulled with the deployment's own credential
// and by digest, a pull that never ends, a kill that is not out-of-memory, orphans swept, a
// killed instance replaced. Skips with how to run it when Podman is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import {
  HostCapacity,
  Deployment,
  type DeploymentSpec,
  ContainerEngine,
  DEPLOYMENT_LABEL,
  MANAGED_LABEL,
  type InstanceSpec,
  InstanceFactory,
  limitsFor,
  LOG_MAX_MB,
} from '../../../reference-app/server/hosting';
import { buildImageFrom, FIXTURE_IMAGE, pushImage } from '../../setup/containerEngine';
import { deploymentSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`hostile publisher tests skipped: ${skip}`);

/** Podman's --userns=auto needs subordinate ids for the user `containers` (docs/security.md). */
const subordinateIds = () => ['/etc/subuid', '/etc/subgid'].every((f) => existsSync(f) && /^containers:/m.test(readFileSync(f, 'utf8')));
if (!subordinateIds()) console.warn('user namespace test skipped: add "containers:2147483647:2147483648" to /etc/subuid and /etc/subgid');

interface Mounts {
  uid_map: string;
  release: string;
  mounts: { target: string; type: string; options: string }[];
}

describe.skipIf(skip)('a hostile publisher on the container runner (Podman, docker-registry)', () => {
  const volumeImage = 'localhost/limelight-fixture-volume:latest';
  const h = useHosting('hostile:1', { images: [volumeImage] });

  beforeAll(() => {
    // An image that declares a VOLUME, as `docker build` makes from `VOLUME /data`.
    buildImageFrom(volumeImage, ['VOLUME /data', 'LABEL io.limelight.test=volume']);
  }, 120_000);

  const open: Deployment[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.stop()));
  });

  const auth = () => h.auth;
  const specFor = (name: string, overrides: Partial<DeploymentSpec> = {}) =>
    deploymentSpec(h, name, { idleTimeoutS: 60, concurrency: 1, ...overrides });

  /** A Deployment whose engine records every container it is asked to create, by image. */
  const deployWatched = (spec: DeploymentSpec, options: ConstructorParameters<typeof Deployment>[2] = {}) => {
    const created: string[] = [];
    const engine = Object.create(h.t.engine) as typeof h.t.engine;
    engine.create = (instance: InstanceSpec) => {
      created.push(instance.image);
      return h.t.engine.create(instance);
    };
    const deployment = new Deployment(engine, spec, { readyTimeoutMs: 15_000, ...options });
    open.push(deployment);
    return { deployment, created };
  };

  const factoryFor = (name: string, instance: Partial<InstanceSpec> = {}) =>
    new InstanceFactory(
      h.t.engine,
      {
        deploymentId: h.t.deploymentId(name),
        image: FIXTURE_IMAGE,
        port: 8080,
        limits: limitsFor({ memoryMb: 256 }),
        gpu: 'none',
        ...instance,
      },
      { healthPath: '/openapi.json', readyTimeoutMs: 15_000 },
    );

  const mountsOf = async (baseUrl: string) => (await (await fetch(`${baseUrl}/fixture/mounts`)).json()) as Mounts;

  describe('finding 4: the host disk', () => {
    it(`keeps at most ${LOG_MAX_MB} MB of a container's log on the host`, async () => {
      const factory = factoryFor('log');
      const { instance } = await factory.acquire();
      const mb = LOG_MAX_MB * 3;
      expect((await fetch(`${instance.baseUrl}/fixture/log?mb=${mb}`)).status).toBe(200);
      const path = execFileSync('podman', ['inspect', '--format', '{{.HostConfig.LogConfig.Path}}', instance.id], {
        env: podmanEnv(),
        encoding: 'utf8',
      }).trim();
      expect(statSync(path).size).toBeLessThanOrEqual(LOG_MAX_MB * 1024 * 1024 + 64 * 1024);
      await factory.discardSpares();
      await factory.discard(instance.id);
    }, 60_000);

    it('/tmp, /var/tmp, /run and /dev/shm are sized tmpfs mounts that cannot run programs', async () => {
      const factory = factoryFor('scratch');
      const { instance } = await factory.acquire();
      const { mounts } = await mountsOf(instance.baseUrl);
      for (const target of ['/tmp', '/var/tmp', '/run', '/dev/shm']) {
        const mount = mounts.find((m) => m.target === target);
        expect(mount, target).toMatchObject({ type: 'tmpfs' });
        expect(mount!.options, target).toMatch(/noexec/);
        expect(mount!.options, target).toMatch(/size=/);
      }
      await factory.discard(instance.id);
    }, 60_000);

    it("an image's VOLUME is a sized noexec tmpfs, and no volume is made on the host disk", async () => {
      const volumesBefore = (await h.t.engine.docker.listVolumes()).Volumes?.length ?? 0;
      const factory = factoryFor('volume', { image: volumeImage, volumes: await h.t.engine.imageVolumes(volumeImage) });
      const { instance } = await factory.acquire();
      const data = (await mountsOf(instance.baseUrl)).mounts.find((m) => m.target === '/data');
      expect(data).toMatchObject({ type: 'tmpfs' });
      expect(data!.options).toMatch(/noexec/);
      expect((await h.t.engine.docker.listVolumes()).Volumes?.length ?? 0).toBe(volumesBefore);
      await factory.discard(instance.id);
    }, 60_000);

    it("an image larger unpacked than the plan's cap is refused before any container runs", async () => {
      const { deployment, created } = deployWatched(specFor('too-big', { imageMaxMb: 10 }));
      const report = await deployment.deploy();
      expect(report.status).toBe('failed');
      expect(report.message).toMatch(/The image is \d+ MB unpacked; this plan allows 10 MB/);
      expect(created).toEqual([]);
    }, 60_000);
  });

  describe("finding 5: the runner's capacity", () => {
    it('starts no more instances than the measured memory holds, and says why', async () => {
      const capacity = new HostCapacity({ memoryMb: 600, cpus: 2 });
      const { deployment } = deployWatched(specFor('capacity', { minInstances: 5, maxInstances: 10 }), { capacity, warm: 'none' });
      const report = await deployment.deploy();
      expect(report).toMatchObject({ status: 'running', instances: 2 });
      expect(report.message).toMatch(/no room for another 256 MB instance/);
      expect((await h.t.engine.containersOf(specFor('capacity').id)).length).toBe(2);
    }, 60_000);
  });

  describe("finding 6: only what the deployment's own credential pulled, by digest", () => {
    it('a failed pull leaves no container, even with the image in the engine and a second save racing it', async () => {
      await h.t.engine.pull(h.image, auth());
      const spec = specFor('stolen', { auth: { ...auth(), password: 'not-the-password' }, minInstances: 1 });
      const { deployment, created } = deployWatched(spec);
      const deploying = deployment.deploy();
      // The second save of the same settings (the fleet calls update while it deploys).
      const racing = deployment.update(spec).catch(() => undefined);
      const [report] = await Promise.all([deploying, racing]);
      expect(report.status).toBe('failed');
      expect(report.message).toMatch(/the registry refused the credential/);
      expect(created).toEqual([]);
      expect(await h.t.engine.containersOf(spec.id)).toEqual([]);
    }, 60_000);

    it('every instance is created by the digest resolved at deploy: a re-pushed tag runs only after a redeploy', async () => {
      const spec = specFor('digest', { maxInstances: 2 });
      const { deployment, created } = deployWatched(spec, { warm: 'none' });
      expect((await deployment.deploy()).status).toBe('running');
      const first = created[0]!;
      expect(first).toMatch(/^[^@]+@sha256:[0-9a-f]{64}$/);
      // Someone re-pushes the tag, and the engine pulls the new image under it.
      pushImage(h.registry, volumeImage, 'hostile:1');
      await h.t.engine.pull(h.image, auth());
      const one = await deployment.acquire();
      const two = await deployment.acquire(); // concurrency 1: a second instance starts
      expect(created.length).toBe(2);
      expect(created[1]).toBe(first);
      one.release();
      two.release();
      pushImage(h.registry, FIXTURE_IMAGE, 'hostile:1');
    }, 90_000);
  });

  describe('finding 8: the lows', () => {
    let silent: Server;
    let silentPort: number;
    beforeAll(async () => {
      // A "registry" that accepts connections and never answers.
      silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      silentPort = (silent.address() as { port: number }).port;
    });
    afterAll(() => {
      silent?.close();
    });

    it('a pull that never finishes fails at its deadline, and the deployment says so', async () => {
      const spec = specFor('silent', { image: `127.0.0.1:${silentPort}/never:1`, auth: undefined });
      const deployment = new Deployment(h.t.engine, spec, { pullTimeoutMs: 2000 });
      open.push(deployment);
      const started = Date.now();
      const report = await deployment.deploy();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(report).toMatchObject({ status: 'failed' });
      expect(report.message).toMatch(/did not finish within 2 s/);
    }, 20_000);

    it('a container killed by someone else is not called out of memory', async () => {
      const factory = factoryFor('killed');
      const { instance } = await factory.acquire();
      await h.t.engine.docker.getContainer(instance.id).kill({ signal: 'SIGKILL' });
      await h.t.engine.docker.getContainer(instance.id).wait();
      const reason = await h.t.engine.exitReason(instance.id, 256);
      expect(reason).toMatch(/killed/);
      expect(reason).not.toMatch(/exceeded its memory limit/);
      await factory.discard(instance.id);
    }, 60_000);

    it('a killed instance is replaced; the deployment keeps running', async () => {
      const { deployment } = deployWatched(specFor('replace', { minInstances: 1 }), { warm: 'none' });
      expect((await deployment.deploy()).status).toBe('running');
      const slot = await deployment.acquire();
      slot.release();
      const [id] = deployment.containerIds;
      await h.t.engine.docker.getContainer(id!).kill({ signal: 'SIGKILL' });
      await h.t.engine.docker.getContainer(id!).wait();
      await deployment.instanceFailed(slot.instance);
      expect(deployment.status.status).toBe('running');
      const next = await deployment.acquire();
      expect(next.instance).not.toBe(slot.instance);
      expect((await fetch(`${next.baseUrl}/openapi.json`)).status).toBe(200);
      next.release();
    }, 60_000);

    it.skipIf(!subordinateIds())(
      "with CONTAINER_USERNS=auto the container's root is not the host's root",
      async () => {
        const engine = new ContainerEngine(h.t.engine.docker, { userns: 'auto' });
        const factory = new InstanceFactory(
          engine,
          { deploymentId: h.t.deploymentId('userns'), image: FIXTURE_IMAGE, port: 8080, limits: limitsFor({ memoryMb: 256 }), gpu: 'none' },
          { healthPath: '/openapi.json', readyTimeoutMs: 15_000 },
        );
        const { instance } = await factory.acquire();
        const [inside, outside] = (await mountsOf(instance.baseUrl)).uid_map.split(/\s+/).map(Number);
        expect(inside).toBe(0);
        expect(outside).toBeGreaterThan(0);
        await factory.discard(instance.id);
      },
      60_000,
    );

    it('sweeps the containers and networks it manages that no deployment knows, and leaves the known ones', async () => {
      const known = factoryFor('known');
      const orphan = factoryFor('orphan');
      const keep = await known.acquire();
      const lost = await orphan.acquire();
      const mine = (deploymentId: string) => deploymentId.startsWith(h.t.deploymentId(''));
      const swept = await h.t.engine.sweepOrphans(
        async () => (deploymentId) => !mine(deploymentId) || deploymentId === h.t.deploymentId('known'),
      );
      expect(swept.containers).toBeGreaterThanOrEqual(1);
      const left = await h.t.engine.docker.listContainers({ all: true, filters: { label: [`${MANAGED_LABEL}=true`] } });
      const ids = left.map((c) => c.Id);
      expect(ids).toContain(keep.instance.id);
      expect(ids).not.toContain(lost.instance.id);
      const networks = await h.t.engine.docker.listNetworks({ filters: { label: [`${DEPLOYMENT_LABEL}=${h.t.deploymentId('orphan')}`] } });
      expect(networks).toEqual([]);
      await known.discard(keep.instance.id);
    }, 60_000);
  });
});
