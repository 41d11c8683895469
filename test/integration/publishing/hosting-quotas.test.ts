import { describe, expect, it } from 'vitest';
import { HOSTING_QUOTAS } from '../../../reference-app/server/payments';
import { apiClients, confirmedUser, globalServer, rawApi, signedIn } from '../helpers';

// Per-account hosting quotas by plan (docs/publishing.md, "Hosting quotas"; issue 35): a free
// account cannot ask a public service for 100 always-on and 1000 instances; the refusal names
// the plan, the numbers and the way out, and nothing is stored.

// The shared server of the global setup: every test has an account of its own.
const server = globalServer();

async function freeAccount(label: string) {
  const { session } = await signedIn(server, await confirmedUser(server, label));
  const token = session.access_token;
  const servers = await apiClients(server, token).modelManagement.pricingServers();
  if (!servers.ok) throw new Error(servers.error);
  return { token, gpu: servers.data[0]!.id };
}

const service = (gpu: string, min_instances: number, max_instances: number, name = 'Greedy') => ({
  display_name: name,
  visibility: 'public',
  endpoints: [],
  runtime: { type: 'container', image: 'docker.io/me/greedy:1', gpu, min_instances, max_instances, idle_timeout_s: 60 },
});

describe('hosting quotas', () => {
  it('refuses a free public service asking min_instances 100 / max_instances 1000, and stores nothing', async () => {
    const { token, gpu } = await freeAccount('greedy');
    const refused = await rawApi(server, 'POST', '/v1/model_management/services', { token, body: service(gpu, 100, 1000) });
    expect(refused.status).toBe(402);
    expect(String(refused.json.detail)).toMatch(/Your free plan allows .* instances/);
    expect(String(refused.json.detail)).toContain('/account/billing');
    const mine = await rawApi(server, 'GET', '/v1/model_management/services', { token });
    expect(mine.json).toEqual([]);
  });

  it("counts the account's other container services, on create and on edit", async () => {
    const { token, gpu } = await freeAccount('counted');
    const quota = HOSTING_QUOTAS.free;
    const first = await rawApi(server, 'POST', '/v1/model_management/services', {
      token,
      body: service(gpu, 0, quota.maxInstances, 'First'),
    });
    expect(first.status).toBe(201);
    const second = await rawApi(server, 'POST', '/v1/model_management/services', { token, body: service(gpu, 0, 1, 'Second') });
    expect(second.status).toBe(402);
    expect(String(second.json.detail)).toMatch(/elsewhere/);
    const id = String(first.json.id);
    const grown = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, {
      token,
      body: { runtime: service(gpu, 0, quota.maxInstances + 1).runtime },
    });
    expect(grown.status).toBe(402);
  });
});
