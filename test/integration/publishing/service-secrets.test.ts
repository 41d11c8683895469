import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLogger } from '../../../reference-app/server/log';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { apiClients, confirmedUser, rawApi, signedIn } from '../helpers';

// A service's secrets (docs/publishing.md, "Secrets"; docs/security.md, "Secrets at rest"): set,
// listed and removed by name by the owner (a key, as `limelight secrets` signs in, or a session,
// as the account page does); the value is sealed in the database and no answer, error or log
// line carries it. And GET /v1/whoami, which `limelight login` checks a key with. A server of its
// own: the test reads the rows and captures the log.

let server: PlatformTestServer;
const logged: string[] = [];

beforeAll(async () => {
  configureLogger({ write: (line) => void logged.push(line), level: 'debug' });
  // With LOG_REQUESTS, every request leaves a line: the capture below has something to search.
  server = await startPlatformServer({ env: { LOG_REQUESTS: 'true' } });
});
afterAll(async () => {
  await server?.close();
  configureLogger({ write: (line) => void process.stdout.write(line), level: 'info' });
});

async function keyOf(label: string) {
  const user = await signedIn(server, await confirmedUser(server, label));
  const created = await apiClients(server, user.session.access_token).profile.createApiKey();
  if (!created.ok) throw new Error(created.error);
  return { key: created.data.secret, email: user.user.email!, token: user.session.access_token };
}

async function serviceOf(key: string, name: string) {
  const created = await rawApi(server, 'POST', '/v1/model_management/services', {
    token: key,
    body: { display_name: name, visibility: 'public' },
  });
  expect(created.status).toBe(201);
  return String(created.json.id);
}

const VALUE = 'sk-live-0123456789abcdef-not-for-answers';

describe('service secrets', () => {
  it('are set, listed by name, replaced and removed; the value is sealed and never answered', async () => {
    const { key, token } = await keyOf('secrets-owner');
    const id = await serviceOf(key, `Secretive ${Math.random().toString(36).slice(2)}`);
    const path = `/v1/model_management/services/${id}/secrets`;

    const set = await rawApi(server, 'PUT', `${path}/OPENAI_API_KEY`, { token: key, body: { value: VALUE } });
    expect(set.status).toBe(200);
    expect(Object.keys(set.json).sort()).toEqual(['created_at', 'name', 'updated_at']);
    expect(set.json.name).toBe('OPENAI_API_KEY');

    const row = await server.platform.database.db
      .selectFrom('service_secrets')
      .selectAll()
      .where('model_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.value_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(VALUE);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(VALUE).toString('base64').slice(0, 16));

    // A session (the account page) reads the same list: names and times only.
    const listed = await rawApi(server, 'GET', path, { token });
    expect(listed).toMatchObject({ status: 200, json: { secrets: [{ name: 'OPENAI_API_KEY', created_at: set.json.created_at }] } });
    expect(Object.keys((listed.json.secrets as unknown as Record<string, unknown>[])[0]!).sort()).toEqual([
      'created_at',
      'name',
      'updated_at',
    ]);

    // The same name replaces the value; the service's own answer carries no value either.
    await new Promise((r) => setTimeout(r, 5));
    const replaced = await rawApi(server, 'PUT', `${path}/OPENAI_API_KEY`, { token: key, body: { value: `${VALUE}-2` } });
    expect(replaced.json).toMatchObject({ name: 'OPENAI_API_KEY', created_at: set.json.created_at });
    expect(Date.parse(String(replaced.json.updated_at))).toBeGreaterThan(Date.parse(String(set.json.updated_at)));
    await rawApi(server, 'PUT', `${path}/HF_TOKEN`, { token: key, body: { value: 'hf_second' } });
    const both = await rawApi(server, 'GET', path, { token: key });
    expect((both.json.secrets as unknown as { name: string }[]).map((s) => s.name)).toEqual(['HF_TOKEN', 'OPENAI_API_KEY']);
    const service = await rawApi(server, 'GET', `/v1/model_management/services/${id}`, { token: key });

    expect(await rawApi(server, 'DELETE', `${path}/HF_TOKEN`, { token: key })).toMatchObject({ status: 200, json: { name: 'HF_TOKEN' } });
    expect(await rawApi(server, 'DELETE', `${path}/HF_TOKEN`, { token: key })).toMatchObject({
      status: 404,
      json: { detail: expect.stringContaining('no secret HF_TOKEN') },
    });
    expect((await rawApi(server, 'GET', path, { token: key })).json).toMatchObject({ secrets: [{ name: 'OPENAI_API_KEY' }] });

    for (const answer of [set, listed, replaced, both, service]) {
      expect(JSON.stringify(answer.json)).not.toContain('sk-live');
      expect(JSON.stringify(answer.json)).not.toContain('hf_second');
    }
    // Deleting the service deletes its secrets.
    await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token: key });
    const left = await server.platform.database.db.selectFrom('service_secrets').select('name').where('model_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('refuse a bad or reserved name and an empty, NUL or oversized value, quoting no value', async () => {
    const { key } = await keyOf('secrets-bad');
    const id = await serviceOf(key, `Secretive ${Math.random().toString(36).slice(2)}`);
    const put = (name: string, value: unknown) =>
      rawApi(server, 'PUT', `/v1/model_management/services/${id}/secrets/${encodeURIComponent(name)}`, { token: key, body: { value } });

    const cases: [string, unknown, string][] = [
      ['openai_key', 'x', 'capital letters, digits and _'],
      ['1ST', 'x', 'not starting with a digit'],
      ['A-B', 'x', 'capital letters'],
      ['A'.repeat(65), 'x', 'at most 64 characters'],
      ['PORT', 'x', 'PORT is set by the platform'],
      ['LIMELIGHT_API_KEY', 'x', 'LIMELIGHT_* are reserved'],
      ['EMPTY', '', 'value: empty'],
      ['HUGE', `sk-live-${'x'.repeat(16 * 1024)}`, 'longer than 16384 bytes'],
    ];
    for (const [name, value, message] of cases) {
      const answer = await put(name, value);
      expect({ name: name.slice(0, 10), status: answer.status, detail: answer.json.detail }).toEqual({
        name: name.slice(0, 10),
        status: 422,
        detail: expect.stringContaining(message),
      });
      expect(JSON.stringify(answer.json)).not.toContain('sk-live');
    }
    expect(await put('NUMBER', 42)).toMatchObject({ status: 422 });
    // A NUL, which no environment variable can hold, is refused by the API's body check already.
    const nul = await put('NUL', 'sk-live-a\0b');
    expect(nul).toMatchObject({ status: 400, json: { detail: expect.stringContaining('NUL') } });
    expect(JSON.stringify(nul.json)).not.toContain('sk-live');
    expect((await rawApi(server, 'GET', `/v1/model_management/services/${id}/secrets`, { token: key })).json).toEqual({ secrets: [] });
    expect(await put('A'.repeat(64), 'x')).toMatchObject({ status: 200 });
  });

  it("are the owner's only: another account can neither list, set nor remove them", async () => {
    const owner = await keyOf('secrets-mine');
    const stranger = await keyOf('secrets-stranger');
    const id = await serviceOf(owner.key, 'Secretive elsewhere');
    const path = `/v1/model_management/services/${id}/secrets`;
    await rawApi(server, 'PUT', `${path}/MINE`, { token: owner.key, body: { value: VALUE } });
    for (const [method, route, body] of [
      ['GET', path],
      ['PUT', `${path}/MINE`, { value: 'stolen' }],
      ['PUT', `${path}/THEIRS`, { value: 'planted' }],
      ['DELETE', `${path}/MINE`],
    ] as const) {
      const answer = await rawApi(server, method, route, { token: stranger.key, ...(body ? { body } : {}) });
      expect({ method, route, status: answer.status }).toEqual({ method, route, status: 403 });
      expect(JSON.stringify(answer.json)).not.toContain('MINE');
    }
    expect(await rawApi(server, 'GET', path)).toMatchObject({ status: 401 });
    expect((await rawApi(server, 'GET', path, { token: owner.key })).json).toMatchObject({ secrets: [{ name: 'MINE' }] });
  });

  it('never reach the log', () => {
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain('sk-live');
    expect(logged.join('\n')).not.toContain('hf_second');
  });
});

describe('GET /v1/whoami', () => {
  it("answers the key's account, and 401 without a credential", async () => {
    const { key, email, token } = await keyOf('whoami');
    expect(await rawApi(server, 'GET', '/v1/whoami', { token: key })).toMatchObject({ status: 200, json: { email, via: 'api_key' } });
    expect(await rawApi(server, 'GET', '/v1/whoami', { token })).toMatchObject({ status: 200, json: { email, via: 'token' } });
    expect(await rawApi(server, 'GET', '/v1/whoami')).toMatchObject({ status: 401 });
    expect(await rawApi(server, 'GET', '/v1/whoami', { token: 'lime_not-a-key' })).toMatchObject({ status: 401 });
  });
});
