import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagedService } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import type { ContainerSpec, DeploymentReport, FleetAdapter } from '../../../reference-app/server/hosting';
import { startSketchService, type SketchService } from '../../fixtures/sketchService';
import { apiClients, confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';

// Container deployments through the registry's FleetAdapter seam (hosting/fleet.ts), on a real
// server: saving a container runtime deploys it, the fleet's status decides health and whether
// runs are taken, a run goes to the instance URL the fleet names, and removing the runtime or
// the service stops it. The fleet here stands in for the container runner (the adapter is the
// seam the runner implements); its "instance" is a real local service (sketchService).

/** A fleet whose one instance is the sketch service, recording what the platform asked. */
function recordingFleet(instance: () => string) {
  const calls: string[] = [];
  const specs: ContainerSpec[] = [];
  const deployed = new Set<string>();
  const report = (id: string): DeploymentReport =>
    deployed.has(id)
      ? { status: 'running', message: 'Healthy', detail: '1 of 1 instances running', instances: 1 }
      : { status: 'stopped', message: 'not deployed', detail: 'not deployed', instances: 0 };
  const fleet: FleetAdapter = {
    name: 'recording',
    async deploy(spec) {
      calls.push(`deploy ${spec.serviceId}`);
      specs.push(spec);
      deployed.add(spec.serviceId);
      return report(spec.serviceId);
    },
    async status(id) {
      return report(id);
    },
    async instanceUrl(id) {
      calls.push(`instance ${id}`);
      return instance();
    },
    async stop(id) {
      calls.push(`stop ${id}`);
      deployed.delete(id);
    },
  };
  return { fleet, calls, specs };
}

let sketch: SketchService;
let plain: PlatformTestServer;
let fleetServer: PlatformTestServer;
const recording = recordingFleet(() => sketch.url);

beforeAll(async () => {
  sketch = await startSketchService();
  [plain, fleetServer] = await Promise.all([startPlatformServer(), startPlatformServer({ fleet: recording.fleet })]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), fleetServer?.close(), sketch?.close()]);
});

async function publisher(server: PlatformTestServer) {
  // The seeded publisher has the Pro plan, so private services are allowed too.
  const { session } = await signedIn(server, PUBLISHER);
  return { token: session.access_token, services: apiClients(server, session.access_token).services };
}

const echoEndpoint = {
  method: 'POST' as const,
  path: '/echo',
  parameters: [{ name: 'text', type: 'string' as const, required: true }],
  output: { type: 'json' as const },
};

async function gpuOf(server: PlatformTestServer, token: string) {
  const servers = await apiClients(server, token).modelManagement.pricingServers();
  if (!servers.ok) throw new Error(servers.error);
  return servers.data[0]!.id;
}

const containerRuntime = (gpu: string, registry_credential_id?: string) => ({
  type: 'container' as const,
  image: 'docker.io/me/echo:1.0',
  gpu,
  min_instances: 0,
  max_instances: 2,
  idle_timeout_s: 120,
  ...(registry_credential_id ? { registry_credential_id } : {}),
});

describe('container deployments', () => {
  it('without a runner: the deployment waits and runs are refused with the reason', async () => {
    const owner = await publisher(plain);
    const gpu = await gpuOf(plain, owner.token);
    const created = await owner.services.create({
      display_name: 'Boxed echo',
      visibility: 'public',
      endpoints: [echoEndpoint],
      runtime: containerRuntime(gpu),
    });
    expect(created).toMatchObject({ ok: true, data: { runtime: { deployment_status: 'waiting_for_runner' } } });
    const id = (created as { data: ManagedService }).data.id;
    const caller = await signedIn(plain, await confirmedUser(plain, 'container-caller'));
    expect(
      await rawApi(plain, 'POST', '/v1/jobs', {
        token: caller.session.access_token,
        body: { service_id: id, endpoint: '/echo', input: { text: 'hi' } },
      }),
    ).toMatchObject({
      status: 409,
      json: { detail: `${id} is deployed as a container that is waiting for a GPU runner; it cannot run yet` },
    });
  });

  it('with a fleet: deploys with the opened registry credential, runs on its instance, stops when removed', async () => {
    const owner = await publisher(fleetServer);
    const gpu = await gpuOf(fleetServer, owner.token);
    const pat = await rawApi(fleetServer, 'POST', '/v1/profile/upsert_pat', {
      token: owner.token,
      body: { platform: 'dockerhub', credential_alias: 'fleet-test', foreign_username: 'me', pat: 'dckr_pat_secret1234' },
    });
    expect(pat.status).toBe(200);
    const credentialId = String((pat.json as unknown as { id: string }).id);

    const created = await owner.services.create({
      display_name: 'Fleet echo',
      visibility: 'public',
      endpoints: [echoEndpoint],
      runtime: containerRuntime(gpu, credentialId),
    });
    expect(created).toMatchObject({ ok: true, data: { runtime: { type: 'container', deployment_status: 'running' } } });
    const id = (created as { data: ManagedService }).data.id;
    expect(recording.specs.at(-1)).toEqual({
      serviceId: id,
      image: 'docker.io/me/echo:1.0',
      registryAuth: { registry: 'docker.io', username: 'me', password: 'dckr_pat_secret1234' },
      gpu,
      minInstances: 0,
      maxInstances: 2,
      idleTimeoutS: 120,
      // Declared by none: the defaults of a CPU service (docs/publishing.md, "Resources").
      resources: { cpu: 1, memoryMb: 1024, gpu: 0 },
    });
    expect(await owner.services.healthCheck(id)).toMatchObject({ ok: true, data: { status: 'ok', detail: '1 of 1 instances running' } });
    const hosting = await rawApi(fleetServer, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, {
      token: owner.token,
    });
    expect(hosting).toMatchObject({ status: 200, json: { status: 'running', gpu } });

    const caller = await signedIn(fleetServer, await confirmedUser(fleetServer, 'fleet-caller'));
    const run = await rawApi(fleetServer, 'POST', '/v1/jobs', {
      token: caller.session.access_token,
      body: { service_id: id, endpoint: '/echo', input: { text: 'boxed' } },
      headers: { Prefer: 'wait=30' },
    });
    expect(run).toMatchObject({ status: 201, json: { status: 'FINISHED', runtime: 'container', result: { echo: { text: 'boxed' } } } });
    expect(recording.calls).toContain(`instance ${id}`);

    expect(await owner.services.update(id, { runtime: { type: 'http', base_url: sketch.url } })).toMatchObject({ ok: true });
    expect(recording.calls.at(-1)).toBe(`stop ${id}`);
    expect(await owner.services.update(id, { runtime: containerRuntime(gpu) })).toMatchObject({ ok: true });
    expect(await owner.services.remove(id)).toMatchObject({ ok: true });
    expect(recording.calls.slice(-2)).toEqual([`deploy ${id}`, `stop ${id}`]);
  });

  it('refuses a credential saved for another registry than the image’s, and deploys nothing (issue 47)', async () => {
    // The engine sends a pull's credential to the image's registry whichever it was saved for:
    // the pull could never succeed, and the password would reach another registry.
    const owner = await publisher(fleetServer);
    const gpu = await gpuOf(fleetServer, owner.token);
    const pat = await rawApi(fleetServer, 'POST', '/v1/profile/upsert_pat', {
      token: owner.token,
      body: { platform: 'registry', registry: 'ghcr.io', credential_alias: 'ghcr-only', foreign_username: 'me', pat: 'ghp_secret5678' },
    });
    expect(pat.status).toBe(200);
    const deploys = recording.specs.length;
    const refused = await rawApi(fleetServer, 'POST', '/v1/model_management/services', {
      token: owner.token,
      body: { display_name: 'Wrong key echo', visibility: 'public', runtime: containerRuntime(gpu, String(pat.json.id)) },
    });
    expect(refused.status, JSON.stringify(refused.json)).toBe(422);
    expect(refused.json.errors).toEqual([
      {
        name: 'runtime.registry_credential_id',
        rule: 'registry',
        message:
          'the registry credential is for ghcr.io and the image is on docker.io; choose a credential for docker.io, or none for a public image',
      },
    ]);
    expect(recording.specs.length).toBe(deploys);
  });
});
