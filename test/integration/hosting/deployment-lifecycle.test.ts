// A container deployment's lifecycle on the real engine (Podman's Docker API): statuses,
// scale to zero and the cold start back, autoscaling under a queue and back, rolling update,
// and failure reasons. Skips with how to run it when Podman is missing.
import { afterEach, describe, expect, it } from 'vitest';
import { Deployment, type DeploymentSpec, type DeploymentReport, limitsFor } from '../../../reference-app/server/hosting';
import { deploymentSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`deployment lifecycle tests skipped: ${skip}`);

async function greet(baseUrl: string, name: string): Promise<string> {
  const res = await fetch(`${baseUrl}/greet`, { method: 'POST', body: JSON.stringify({ name }) });
  return ((await res.json()) as { text: string }).text;
}

describe.skipIf(skip)('container deployment lifecycle (Podman)', () => {
  const h = useHosting('fixture:1');
  const specFor = (name: string, overrides: Partial<DeploymentSpec> = {}) => deploymentSpec(h, name, overrides);

  // Every deployment is stopped after its test, pass or fail, so no container outlives it.
  const open: Deployment[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.stop()));
  });

  const deploy = (spec: DeploymentSpec) => {
    const reports: DeploymentReport[] = [];
    const deployment = new Deployment(h.t.engine, spec, { onReport: (r) => reports.push(r), readyTimeoutMs: 10_000 });
    open.push(deployment);
    return { deployment, reports, statuses: () => [...new Set(reports.map((r) => r.status))] };
  };

  it('deploying → running → scaled_to_zero → a cold start on the next job → stopped, with nothing left', async () => {
    const { deployment, statuses } = deploy(specFor('life'));
    expect(await deployment.deploy()).toMatchObject({ status: 'running', instances: 1 });
    expect(deployment.status.lastColdStartMs).toBeGreaterThan(0);

    const warm = await deployment.acquire();
    expect(warm.coldStartMs).toBe(0);
    expect(await greet(warm.baseUrl, 'Ada')).toBe('Hello, Ada.');
    warm.release();

    await expect.poll(() => deployment.status.status, { timeout: 10_000 }).toBe('scaled_to_zero');
    expect(deployment.status.instances).toBe(0);
    expect(deployment.baseUrl).toBeNull();

    const cold = await deployment.acquire();
    expect(cold.coldStartMs).toBeGreaterThan(0);
    expect(deployment.status).toMatchObject({ status: 'running', instances: 1, lastColdStartMs: cold.coldStartMs });
    expect(await greet(cold.baseUrl, 'Bo')).toBe('Hello, Bo.');
    cold.release();
    expect(deployment.logs.tail(200).some((l) => l.stream === 'runner' && /^Instance ready in \d+ ms \(unpause/.test(l.text))).toBe(true);
    // Log lines arrive on the engine's stream shortly after the answer.
    await expect.poll(() => deployment.logs.tail(200).some((l) => l.text === 'greeting Bo')).toBe(true);

    await deployment.stop();
    expect(statuses()).toEqual(['deploying', 'running', 'scaled_to_zero', 'stopped']);
    expect(await h.t.engine.containersOf(specFor('life').id)).toEqual([]);
  });

  it('a job that arrives while the deployment is still deploying waits for its first instance', async () => {
    const { deployment } = deploy(specFor('early-job'));
    const deploying = deployment.deploy();
    // A takeover or a save just before a run: the job comes before the first instance is up.
    const early = deployment.acquire(AbortSignal.timeout(30_000));
    expect(await deploying).toMatchObject({ status: 'running' });
    const slot = await early;
    expect(await greet(slot.baseUrl, 'Early')).toBe('Hello, Early.');
    slot.release();
    await deployment.stop();
  });

  it('scales up to max_instances while jobs queue, and back down when idle', async () => {
    const { deployment } = deploy(specFor('scale', { maxInstances: 3, minInstances: 1 }));
    await deployment.deploy();
    const slots = await Promise.all([deployment.acquire(), deployment.acquire(), deployment.acquire()]);
    expect(new Set(slots.map((l) => l.instance)).size).toBe(3);
    expect(deployment.status.instances).toBe(3);

    // A fourth job waits for a slot: max_instances is reached.
    let fourthServed = false;
    const fourth = deployment.acquire().then((slot) => {
      fourthServed = true;
      return slot;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(fourthServed).toBe(false);
    slots[0]!.release();
    const slot = await fourth;
    expect(slot.instance).toBe(slots[0]!.instance);
    for (const l of [slot, slots[1]!, slots[2]!]) l.release();

    await expect.poll(() => deployment.status.instances, { timeout: 10_000 }).toBe(1);
    expect(deployment.status.status).toBe('running');
    await deployment.stop();
  });

  it('a rolling update: the new version answers, the old containers are gone', async () => {
    const { deployment } = deploy(specFor('roll', { minInstances: 1 }));
    await deployment.deploy();
    const before = deployment.containerIds;
    const report = await deployment.update(
      specFor('roll', { minInstances: 1, instance: { limits: limitsFor({ memoryMb: 256 }), gpu: 'none', env: { GREETING: 'Hi' } } }),
    );
    expect(report).toMatchObject({ status: 'running', instances: 1 });
    const slot = await deployment.acquire();
    expect(await greet(slot.baseUrl, 'Cy')).toBe('Hi, Cy.');
    slot.release();
    const live = await h.t.engine.containersOf(specFor('roll').id);
    for (const id of before) expect(live).not.toContain(id);
    await deployment.stop();
  });

  it.each([
    ['a bad image', { image: 'REGISTRY/no-such-image:1' }, /Pulling .*no-such-image:1 failed/],
    [
      'a bad credential',
      { auth: { username: 'publisher', password: 'wrong', serveraddress: 'REGISTRY' } },
      /Pulling .* failed: the registry refused the credential/,
    ],
    [
      'a crashing container',
      { instance: { limits: limitsFor({ memoryMb: 256 }), gpu: 'none' as const, env: { CRASH_AT_START: '1' } } },
      /exited with code 2 before it answered/,
    ],
    ['a failing health check', { healthPath: '/healthz' }, /health check failed .*answered 404/],
  ])('fails with the reason: %s', async (_name, overrides, reason) => {
    const patched = JSON.parse(JSON.stringify(overrides).replaceAll('REGISTRY', h.registry.host)) as Partial<DeploymentSpec>;
    const spec = specFor(`fail-${Math.random().toString(36).slice(2, 8)}`, patched);
    const { deployment } = deploy(spec);
    const report = await deployment.deploy();
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(reason);
    await expect(deployment.acquire()).rejects.toThrow(/failed/);
    expect(await h.t.engine.containersOf(spec.id)).toEqual([]);
  });

  it('a crashing container quotes its last log lines', async () => {
    const spec = specFor('crashlog', { instance: { limits: limitsFor({ memoryMb: 256 }), gpu: 'none', env: { CRASH_AT_START: '1' } } });
    const report = await deploy(spec).deployment.deploy();
    expect(report.message).toContain('fixture: cannot load the model');
  });
});
