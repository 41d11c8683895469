// A container service's coarse deployment state, from the catalogue descriptor the server builds
// (catalogue/descriptors.ts) to what the card, the page and the Playground decide with it
// (`runBlocker`, src/run/endpoints.ts; docs/publishing.md, "Lifecycle").
import { describe, expect, it } from 'vitest';
import { deploymentState, toDescriptor } from '../../../reference-app/server/catalogue/descriptors';
import { canRunService, runBlocker } from '../../../src/run';
import type { Job, ServiceEndpoint } from '../../../src/api';
import { credentialPayload } from '../../../src/components/RegistryCredentialsPanel/useRegistryCredentialsPanel';
import { runTimings } from '../../../src/components/ServiceRunner/outputModel';

const greet: ServiceEndpoint = { method: 'POST', path: '/greet', parameters: [] } as unknown as ServiceEndpoint;

describe('the coarse deployment state', () => {
  it('is ready when running or scaled to zero, starting while deploying, unavailable otherwise', () => {
    expect(deploymentState('running')).toBe('ready');
    expect(deploymentState('scaled_to_zero')).toBe('ready');
    expect(deploymentState('deploying')).toBe('starting');
    for (const status of ['failed', 'stopped', 'waiting_for_runner', null]) expect(deploymentState(status)).toBe('unavailable');
  });

  it('is in the descriptor of container services only', () => {
    const row = {
      id: 'greeter',
      display_name: 'Greeter',
      model_desc: null,
      display_img_url: null,
      used_models: null,
      model_category: null,
      created_by: null,
      created_at: new Date('2026-11-24T00:00:00Z'),
      n_usages: 0,
      sort_idx_featured: null,
      provider: null,
      owner_name: null,
      is_public: true,
      endpoints: [],
    } as unknown as Parameters<typeof toDescriptor>[0];
    expect(toDescriptor({ ...row, runtime_type: 'container', hosting_status: 'failed' }, 'http://x').deployment).toBe('unavailable');
    expect(toDescriptor({ ...row, runtime_type: 'container', hosting_status: 'scaled_to_zero' }, 'http://x').deployment).toBe('ready');
    expect(toDescriptor({ ...row, runtime_type: 'http', hosting_status: 'running' }, 'http://x')).not.toHaveProperty('deployment');
    expect(toDescriptor(row, 'http://x')).not.toHaveProperty('deployment');
  });
});

describe('runBlocker: why a service cannot be run now', () => {
  it('names missing endpoints first, then a deployment that is not ready', () => {
    expect(runBlocker({ endpoints: [], deployment: 'ready' })).toBe('no-endpoints');
    expect(runBlocker({ endpoints: [greet], deployment: 'starting' })).toBe('starting');
    expect(runBlocker({ endpoints: [greet], deployment: 'unavailable' })).toBe('unavailable');
    expect(runBlocker({ endpoints: [greet], deployment: 'ready' })).toBeNull();
    expect(canRunService({ endpoints: [greet] })).toBe(true);
    // The bundled catalogue lists no endpoints: unknown is not "none".
    expect(canRunService({})).toBe(true);
    expect(canRunService({ endpoints: [greet], deployment: 'unavailable' })).toBe(false);
  });
});

describe("a run's timings in the Playground", () => {
  const job = (runtime: string, cold_start_ms: number | null | undefined) =>
    ({ runtime, metrics: { queue_ms: 4, run_ms: 9, cold_start_ms, gpu_seconds: 0, cost_credits: 0 } }) as unknown as Job;
  it('shows a container run’s cold start, 0 as a warm start, and none for runtimes that are always up', () => {
    expect(runTimings(job('container', 23))).toEqual({ queue: 4, coldStart: 23, run: 9 });
    expect(runTimings(job('container', 0))).toEqual({ queue: 4, coldStart: 0, run: 9 });
    expect(runTimings(job('local-demo', 0))).toEqual({ queue: 4, coldStart: null, run: 9 });
    expect(runTimings(job('http', undefined))).toEqual({ queue: 4, coldStart: null, run: 9 });
  });
});

describe('the registry credential form', () => {
  const form = { registry: '', foreign_username: 'publisher', credential_alias: 'local', pat: 'secret' };
  it('is a Docker Hub token without a host or for docker.io, else a registry credential for that host', () => {
    expect(credentialPayload(form)).toEqual({
      foreign_username: 'publisher',
      credential_alias: 'local',
      pat: 'secret',
      platform: 'dockerhub',
    });
    expect(credentialPayload({ ...form, registry: ' docker.io ' })).toMatchObject({ platform: 'dockerhub' });
    expect(credentialPayload({ ...form, registry: 'http://127.0.0.1:5000/' })).toMatchObject({
      platform: 'registry',
      registry: '127.0.0.1:5000',
    });
    expect(credentialPayload({ ...form, registry: 'ghcr.io' })).toMatchObject({ platform: 'registry', registry: 'ghcr.io' });
  });
});
