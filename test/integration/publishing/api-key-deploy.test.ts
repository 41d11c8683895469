import { describe, expect, it } from 'vitest';
import { apiClients, confirmedUser, globalServer, rawApi, signedIn } from '../helpers';

// `limelight deploy` signs in with an API key (docs/publishing.md, "limelight push and deploy"):
// keys may create, change and delete the caller's own services, never another account's, and
// still no account route (test/integration/api/access.test.ts).

const target = globalServer();

async function keyOf(prefix: string) {
  const user = await signedIn(target, await confirmedUser(target, prefix));
  const created = await apiClients(target, user.session.access_token).profile.createApiKey();
  if (!created.ok) throw new Error(created.error);
  return created.data.secret;
}

describe('API keys on the service routes', () => {
  it('a key creates, lists, changes and deletes its own service', async () => {
    const key = await keyOf('deploy-key');
    const created = await rawApi(target, 'POST', '/v1/model_management/services', {
      token: key,
      body: { display_name: 'Keyed OCR', visibility: 'public' },
    });
    expect(created.status).toBe(201);
    const id = String(created.json.id);
    const listed = await rawApi(target, 'GET', '/v1/model_management/services', { token: key });
    expect((listed.json as unknown as { id: string }[]).map((s) => s.id)).toContain(id);
    const changed = await rawApi(target, 'PATCH', `/v1/model_management/services/${id}`, {
      token: key,
      body: { model_desc: 'Reads text' },
    });
    expect(changed.status).toBe(200);
    expect((await rawApi(target, 'DELETE', `/v1/model_management/services/${id}`, { token: key })).status).toBe(200);
  });

  it("a key cannot read, change or delete another account's service", async () => {
    const owner = await keyOf('deploy-owner');
    const stranger = await keyOf('deploy-stranger');
    const created = await rawApi(target, 'POST', '/v1/model_management/services', {
      token: owner,
      body: { display_name: 'Not yours', visibility: 'public' },
    });
    const id = String(created.json.id);
    for (const [method, body] of [['GET'], ['PATCH', { model_desc: 'mine now' }], ['DELETE']] as const) {
      const answer = await rawApi(target, method, `/v1/model_management/services/${id}`, { token: stranger, ...(body ? { body } : {}) });
      expect({ method, refused: [403, 404].includes(answer.status) }).toEqual({ method, refused: true });
    }
    const still = await rawApi(target, 'GET', `/v1/model_management/services/${id}`, { token: owner });
    expect(still.json).toMatchObject({ id, model_desc: null });
  });
});
