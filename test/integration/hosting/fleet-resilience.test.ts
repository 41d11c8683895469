// No publisher can crash the platform through its deployment (issue 35, finding 2): every
// background promise of the Docker fleet is handled, and a start that fails is reported on the
// deployment. Before, a health check that never passed ended the process with an unhandled
// rejection (a second save's update → settle → startInstance), and so did a delete during a large
// start (the engine's 404 "no such container"). Here the process's unhandled rejections are
// recorded while the health check is killed, the service is deleted mid-start and its containers
// are removed behind the runner's back, and after each the runner still answers.
// On the real engine (Podman's Docker API) and registry; skips with how to run it otherwise.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DockerFleet, type ContainerSpec, DEPLOYMENT_LABEL, MANAGED_LABEL } from '../../../reference-app/server/hosting';
import { containerSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`fleet resilience tests skipped: ${skip}`);

describe.skipIf(skip)('the Docker fleet against a publisher’s failures (Podman)', () => {
  const h = useHosting('resilience:1');
  let fleet: DockerFleet;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => void unhandled.push(reason);

  beforeAll(() => {
    process.on('unhandledRejection', record);
  });

  afterAll(async () => {
    process.off('unhandledRejection', record);
    await fleet?.close();
  }, 60_000);

  afterEach(async () => {
    await fleet?.close();
    unhandled.length = 0;
  }, 60_000);

  const newFleet = () => (fleet = new DockerFleet({ engine: h.t.engine, readyTimeoutMs: 4_000, memoryCapMb: 128 }));
  const specFor = (name: string, overrides: Partial<ContainerSpec> = {}) => containerSpec(h, name, overrides);
  const containersOf = async (serviceId: string) =>
    (
      await h.t.engine.docker.listContainers({
        all: true,
        filters: { label: [`${MANAGED_LABEL}=true`, `${DEPLOYMENT_LABEL}=${serviceId}`] },
      })
    ).map((c) => c.Id);
  /** The runner still answers: a status read and a new, healthy deployment beside the broken one. */
  const stillAnswers = async (name: string) => {
    const spec = specFor(name, { minInstances: 0 });
    await fleet.deploy(spec);
    await expect.poll(async () => (await fleet.status(spec.serviceId)).status, { timeout: 60_000 }).toBe('running');
  };

  it('a health check that never passes, saved twice: failed on the deployment, the process lives', async () => {
    newFleet();
    const spec = specFor('never-healthy', { healthPath: '/never' });
    await fleet.deploy(spec);
    // The second save (another field, or the runner's renewal) lands while the first deploy runs.
    await fleet.deploy(spec);
    await expect.poll(async () => (await fleet.status(spec.serviceId)).status, { timeout: 60_000, interval: 200 }).toBe('failed');
    expect((await fleet.status(spec.serviceId)).detail).toMatch(/health check failed/);
    await new Promise((r) => setTimeout(r, 6_000)); // beyond the second start's own health timeout
    expect(unhandled).toEqual([]);
    await stillAnswers('after-health');
  }, 120_000);

  it('a delete during a large start: stopped, nothing left, the process lives', async () => {
    newFleet();
    const spec = specFor('deleted-mid-start', { minInstances: 4 });
    await fleet.deploy(spec);
    await expect.poll(async () => (await containersOf(spec.serviceId)).length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
    await fleet.stop(spec.serviceId);
    await new Promise((r) => setTimeout(r, 8_000));
    expect(unhandled).toEqual([]);
    expect(await containersOf(spec.serviceId)).toEqual([]);
    await stillAnswers('after-delete');
  }, 120_000);

  it('containers removed behind the runner’s back while it starts: reported, the process lives', async () => {
    newFleet();
    const spec = specFor('raced', { minInstances: 3 });
    await fleet.deploy(spec);
    const removed = new Set<string>();
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline) {
      for (const id of await containersOf(spec.serviceId)) {
        if (removed.has(id)) continue;
        removed.add(id);
        await h.t.engine.remove(id).catch(() => undefined);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // A save while it fails (the renewal of the runner's lease does this) must not throw either.
    await fleet.deploy({ ...spec, minInstances: 2 });
    await new Promise((r) => setTimeout(r, 6_000));
    expect(removed.size).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
    expect(['failed', 'running', 'deploying']).toContain((await fleet.status(spec.serviceId)).status);
    await stillAnswers('after-race');
  }, 120_000);
});
