import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../../../reference-app/server/crypto/secretBox';
import { waitingFleet, type DeploymentStatus, type FleetAdapter } from '../../../../reference-app/server/hosting/fleet';
import {
  createRuntimeRegistry,
  IO_RUNTIMES,
  slotPoolOf,
  type RunnableService,
} from '../../../../reference-app/server/hosting/runtimeRegistry';
import { RuntimeError } from '../../../../reference-app/server/runtimes/runtime';
import { testContext } from './harness';

// The runtime registry's rules (hosting/runtimeRegistry.ts): which kind a service is, when a container
// deployment takes runs, what its health says, and the default fleet that waits for a runner.

const box = createSecretBox(Buffer.alloc(32, 7));
const config = { localDemoStepMs: 0, allowPrivateServiceUrls: true };

const service = (overrides: Partial<RunnableService> = {}): RunnableService => ({
  id: 'svc-1',
  provider: 'limelight',
  model_category: [],
  endpoints: [],
  is_public: true,
  created_by: null,
  status: 'active',
  runtime_type: null,
  base_url: null,
  headers_sealed: null,
  ...overrides,
});

const fleetIn = (status: DeploymentStatus): FleetAdapter => ({
  ...waitingFleet,
  name: 'fixed',
  status: async () => ({ status, message: `it is ${status}`, detail: `it is ${status}`, instances: status === 'running' ? 1 : 0 }),
});

describe('createRuntimeRegistry', () => {
  it('tells the kinds apart: no runtime row is the local demo, http needs a base URL', () => {
    const registry = createRuntimeRegistry({ box, config });
    expect(registry.kindOf(service())).toBe('local-demo');
    expect(registry.kindOf(service({ runtime_type: 'http', base_url: 'http://127.0.0.1:9' }))).toBe('http');
    expect(registry.kindOf(service({ runtime_type: 'http' }))).toBe('local-demo');
    expect(registry.kindOf(service({ runtime_type: 'container' }))).toBe('container');
    expect(registry.runtimeFor(service())?.name).toBe('local-demo');
    expect(registry.runtimeFor(service({ runtime_type: 'http', base_url: 'http://127.0.0.1:9' }))?.name).toBe('http');
  });

  it('refuses container runs by the deployment status, and takes them once it runs or scaled to zero', async () => {
    const container = service({ runtime_type: 'container' });
    const refusal = (status: DeploymentStatus) => createRuntimeRegistry({ box, config, fleet: fleetIn(status) }).refusal(container);
    expect(await createRuntimeRegistry({ box, config }).refusal(container)).toBe(
      'svc-1 is deployed as a container that is waiting for a GPU runner; it cannot run yet',
    );
    expect(await refusal('failed')).toBe("svc-1's container deployment failed (it is failed); its owner must fix it before it can run");
    expect(await refusal('stopped')).toBe("svc-1's container deployment is stopped");
    for (const status of ['deploying', 'running', 'scaled_to_zero'] as const) expect(await refusal(status)).toBeUndefined();
    expect(await createRuntimeRegistry({ box, config, fleet: fleetIn('failed') }).refusal(service())).toBeUndefined();
  });

  it('reports a deployment as a health check', async () => {
    const health = (status: DeploymentStatus) =>
      createRuntimeRegistry({ box, config, fleet: fleetIn(status) }).health(service({ runtime_type: 'container' }));
    expect(await health('waiting_for_runner')).toMatchObject({ status: 'waiting_for_runner', detail: 'it is waiting_for_runner' });
    expect(await health('running')).toMatchObject({ status: 'ok', latency_ms: null });
    expect(await health('scaled_to_zero')).toMatchObject({ status: 'ok' });
    expect(await health('failed')).toMatchObject({ status: 'failing', detail: 'it is failed' });
    expect(await createRuntimeRegistry({ box, config }).health(service())).toMatchObject({
      status: 'ok',
      detail: 'Runs on the local demo runtime',
    });
  });

  it('fails a container run without a runner with a message the owner reads', async () => {
    const runtime = createRuntimeRegistry({ box, config }).runtimeFor(service({ runtime_type: 'container' }))!;
    expect(runtime.name).toBe('container');
    const { ctx } = testContext({ method: 'POST', path: '/echo', parameters: [] });
    const failure = await runtime.run({}, ctx).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RuntimeError);
    expect(failure).toMatchObject({ code: 'no_runner', message: 'svc-1: no container runner is attached to this server' });
  });

  it('puts each runtime in the slot pool it declares: the network-bound ones in io, any other in local', () => {
    const registry = createRuntimeRegistry({ box, config });
    const poolOf = (s: RunnableService) => slotPoolOf(registry.runtimeFor(s)!.name);
    expect(poolOf(service())).toBe('local');
    expect(poolOf(service({ runtime_type: 'http', base_url: 'http://127.0.0.1:9' }))).toBe('io');
    expect(poolOf(service({ runtime_type: 'container' }))).toBe('io');
    expect(slotPoolOf('local')).toBe('local');
    expect([...IO_RUNTIMES].sort()).toEqual(['container', 'http']);
    // A runtime the registry does not know (a test's), or a job without one, runs in the local pool.
    expect(slotPoolOf('fixed')).toBe('local');
    expect(slotPoolOf(null)).toBe('local');
  });

  it("scopes container claims to the deployments the fleet holds; without a runner's list, none", () => {
    expect(createRuntimeRegistry({ box, config }).claimScope()).toBeNull();
    const held = createRuntimeRegistry({ box, config, fleet: { ...waitingFleet, heldDeployments: () => ['svc-held'] } });
    expect(held.claimScope()).toEqual({ runtimes: ['container'], services: ['svc-held'] });
  });

  it('lets a test chooser replace the runtimes but keeps the admission rules', async () => {
    const fixed = { name: 'fixed', run: async () => 'done' };
    const registry = createRuntimeRegistry({ box, config, choose: () => fixed });
    expect(registry.runtimeFor(service({ runtime_type: 'container' }))).toBe(fixed);
    expect(await registry.refusal(service({ runtime_type: 'container' }))).toMatch(/waiting for a GPU runner/);
  });
});
