import { expect } from 'vitest';
import type { ManagedService } from '../../../src/api';
import { apiClients, rawApi, type Target } from '../helpers';

// What a publisher does before a container service runs (docs/publishing.md, "Build, push,
// deploy, run"): saves the registry credential, then creates the service without endpoints (they
// are imported from the container's /openapi.json) on the cheapest GPU offer. Answers the create's
// answer (the service as it was then).

export async function publishContainer(
  target: Target,
  token: string,
  registry: { host: string; username: string; password: string },
  options: { image: string; name: string; idleTimeoutS: number },
): Promise<ManagedService> {
  const pat = await rawApi(target, 'POST', '/v1/profile/upsert_pat', {
    token,
    body: {
      platform: 'registry',
      registry: registry.host,
      credential_alias: options.name,
      foreign_username: registry.username,
      pat: registry.password,
    },
  });
  expect(pat).toMatchObject({ status: 200, json: { platform: 'registry', registry: registry.host } });
  const api = apiClients(target, token);
  const servers = await api.modelManagement.pricingServers();
  if (!servers.ok) throw new Error(servers.error);
  const created = await api.services.create({
    display_name: options.name,
    visibility: 'public',
    runtime: {
      type: 'container',
      image: options.image,
      registry_credential_id: String(pat.json.id),
      gpu: servers.data[0]!.id,
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: options.idleTimeoutS,
    },
  });
  expect(created, JSON.stringify(created)).toMatchObject({ ok: true });
  return (created as { data: ManagedService }).data;
}
