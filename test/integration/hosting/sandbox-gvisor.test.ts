// The gVisor sandbox tier (docs/security.md, "Sandbox tiers"): a Podman service whose runtime
// is runsc (deploy/podman/runsc-sandbox) runs the publisher's container under gVisor's own
// kernel, with the same limits, network, health gate and paused pool as under runc. Skips with
// how to run it when Podman or runsc is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runscUnavailableReason } from '../../../scripts/engine.mjs';
import { ContainerEngine, EngineError, InstanceFactory, limitsFor } from '../../../reference-app/server/hosting';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';

const skip = engineSkipReason() ?? runscUnavailableReason();
if (skip) console.warn(`gVisor sandbox tests skipped: ${skip}`);

describe.skipIf(skip)('the gVisor sandbox tier (Podman with runsc)', () => {
  let t: TestEngine;
  let plain: TestEngine;

  beforeAll(async () => {
    [t, plain] = await Promise.all([startTestEngine({ sandbox: 'gvisor' }), startTestEngine()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([t?.stop(), plain?.stop()]);
  }, 60_000);

  it('the runner checks the engine really runs runsc before it says gvisor', async () => {
    await expect(t.engine.checkSandbox()).resolves.toBeUndefined();
    await expect(plain.engine.checkSandbox()).resolves.toBeUndefined();
    // CONTAINER_SANDBOX=gvisor against an engine that runs runc.
    const lying = new ContainerEngine(plain.engine.docker, { sandbox: 'gvisor' });
    await expect(lying.checkSandbox()).rejects.toThrow(EngineError);
    await expect(lying.checkSandbox()).rejects.toThrow(/CONTAINER_SANDBOX=gvisor.*runsc/);
  });

  it("runs the publisher's container on gVisor's kernel, isolated, from the paused pool", async () => {
    const factory = new InstanceFactory(
      t.engine,
      { deploymentId: t.deploymentId('gvisor'), image: FIXTURE_IMAGE, port: 8080, limits: limitsFor({ memoryMb: 256 }), gpu: 'none' },
      { healthPath: '/openapi.json', readyTimeoutMs: 30_000 },
    );
    await factory.replenish('paused', 1);
    const { instance, stages } = await factory.acquire();
    expect(Object.keys(stages)).toEqual(['unpause', 'ready']);
    const { release, mounts } = (await (await fetch(`${instance.baseUrl}/fixture/mounts`)).json()) as {
      release: string;
      mounts: { target: string; options: string }[];
    };
    // gVisor's Sentry answers uname with its own version, not the host's kernel.
    expect(release).toBe('4.4.0');
    expect(mounts.find((m) => m.target === '/tmp')?.options).toMatch(/noexec/);
    const greeting = await fetch(`${instance.baseUrl}/greet`, { method: 'POST', body: JSON.stringify({ name: 'gVisor' }) });
    expect(((await greeting.json()) as { text: string }).text).toBe('Hello, gVisor.');
    await factory.discard(instance.id);
    await factory.discardSpares();
    expect(await t.leftovers()).toEqual([]);
  }, 120_000);
});
