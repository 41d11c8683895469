import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_DEFAULT_LIFETIME_DAYS, TOKENS_MISSING_ERROR } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
// reaches inside: the API keys' domain functions called without HTTP (the 'domain functions' test)
import { createApiKey, deleteApiKey, listApiKeys, MAX_API_KEYS } from '../../../reference-app/server/profile/apiKeys';
import { apiClients, confirmedUser, DEMO, DEMO_ID, rawApi, signedIn } from '../helpers';

// /v1/profile/ through the clients of src/api (product-rules §7, §3): profile, terms, update with
// validation, API keys, usage statistics, registry tokens. A server of its own, so the tests
// can also look into the database (secrets at rest).

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer();
});
afterAll(() => server?.close());

async function newUser() {
  const { session } = await signedIn(server, await confirmedUser(server, 'profile'));
  return {
    token: session.access_token,
    id: session.user.id,
    email: session.user.email!,
    api: apiClients(server, session.access_token).profile,
  };
}

describe('profile', () => {
  it('a new user has a profile with the 500 sign-up bonus and is_new_user until the terms are accepted', async () => {
    const { api, id, email } = await newUser();
    const first = await api.signInSignUp();
    expect(first).toMatchObject({
      ok: true,
      status: 200,
      data: { id, email, terms_accepted: false, is_new_user: true, sign_up_bonus: 500, full_name: null },
    });
    const agreed = await api.agreeToTerms();
    expect(agreed).toMatchObject({ ok: true, data: { terms_accepted: true, is_new_user: false } });
    expect(await api.profile()).toMatchObject({ ok: true, data: { terms_accepted: true } });
  });

  it('the demo user has a filled-in profile', async () => {
    const { session } = await signedIn(server, DEMO);
    expect(await apiClients(server, session.access_token).profile.profile()).toMatchObject({
      ok: true,
      data: { id: DEMO_ID, full_name: 'Dana Demo', city: 'Berlin', country_code: 'DE', terms_accepted: true },
    });
  });

  it('update_profile stores the given fields, clears null ones and ignores echoed read-only fields', async () => {
    const { api } = await newUser();
    const updated = await api.updateProfile({
      full_name: 'Grace Hopper',
      city: 'Arlington',
      country_code: 'us',
      zip_code: '22201',
      mobile: '+1 703 555 0100',
      date_of_birth: '1906-12-09',
      profile_picture_url: 'https://example.test/grace.png',
    });
    expect(updated).toMatchObject({
      ok: true,
      data: { full_name: 'Grace Hopper', country_code: 'US', date_of_birth: '1906-12-09', mobile: '+1 703 555 0100' },
    });
    const current = (updated.ok && updated.data)!;
    const cleared = await api.client.post('update_profile', { ...current, city: null, terms_accepted: false });
    expect(cleared).toMatchObject({ ok: true, data: { city: null, full_name: 'Grace Hopper', terms_accepted: false } });
  });

  it('rejects bad fields with 422 and a detail naming the field, losing nothing stored', async () => {
    const { api } = await newUser();
    await api.updateProfile({ full_name: 'Kept Name', country_code: 'FR' });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ country_code: 'France' }, /^country_code: must be a two-letter ISO 3166 country code$/],
      [{ date_of_birth: '12/09/1906' }, /^date_of_birth: must be a date in the form YYYY-MM-DD$/],
      [{ profile_picture_url: 'javascript:alert(1)' }, /^profile_picture_url: must be an http\(s\) URL$/],
      [{ mobile: 'call me' }, /^mobile: must be a phone number/],
      [{ full_name: 'x'.repeat(201) }, /^full_name: must be at most 200 characters$/],
      [{ favourite_colour: 'green' }, /favourite_colour/],
      [{ full_name: 42 }, /^full_name: /],
    ];
    for (const [body, detail] of cases) {
      const result = await api.client.post('update_profile', body);
      expect(result, JSON.stringify(body)).toMatchObject({ ok: false, status: 422 });
      expect(!result.ok && result.error).toMatch(detail);
    }
    expect(await api.profile()).toMatchObject({ ok: true, data: { full_name: 'Kept Name', country_code: 'FR' } });
    const malformed = await rawApi(server, 'POST', '/v1/profile/update_profile', {
      token: (await newUser()).token,
      rawBody: '{"full_name":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.detail).toBe('Request body is not valid JSON');
  });

  it('every profile call needs a token: 401 with a detail', async () => {
    const anonymous = apiClients(server, null).profile;
    expect(await anonymous.profile()).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    const calls: Array<[string, string]> = [
      ['POST', 'sign_in_sign_up'],
      ['GET', 'profile'],
      ['POST', 'agree_to_terms'],
      ['POST', 'update_profile'],
      ['GET', 'api_keys'],
      ['POST', 'create_api_key'],
      ['POST', 'delete_api_key'],
      ['GET', 'usage_statistics'],
      ['POST', 'upsert_pat'],
      ['POST', 'delete_pat'],
      ['GET', 'get_pat_token'],
    ];
    for (const [method, path] of calls) {
      const raw = await rawApi(server, method, `/v1/profile/${path}`, method === 'POST' ? { body: {} } : {});
      expect(raw.status, path).toBe(401);
      expect(raw.json.detail, path).toMatch(/^Not authenticated/);
    }
    const bad = await rawApi(server, 'GET', '/v1/profile/profile', { headers: { Authorization: 'Token abc' } });
    expect(bad).toMatchObject({
      status: 401,
      json: { detail: 'The Authorization header must have the form: Bearer <access token or API key>' },
    });
  });
});

describe('API keys', () => {
  it('domain functions, without HTTP: mint with a lifetime, list masked, refuse past the maximum, delete only own', async () => {
    const { id } = await newUser();
    const db = server.platform.database.db;
    const before = Date.now();
    const key = await createApiKey(db, id, 30);
    expect(Math.round((Date.parse(key.expiration_date) - before) / 86_400_000)).toBe(30);
    expect(await listApiKeys(db, id)).toEqual([
      {
        id: key.id,
        name: 'API key',
        display_value: key.display_value,
        scopes: ['services:run', 'services:publish'],
        created_at: key.created_at,
        expiration_date: key.expiration_date,
        last_used_at: null,
      },
    ]);
    for (let i = 1; i < MAX_API_KEYS; i++) await createApiKey(db, id, 1);
    await expect(createApiKey(db, id, 1)).rejects.toMatchObject({
      code: 'conflict',
      detail: `You have ${MAX_API_KEYS} API keys, the maximum; delete one first`,
    });
    await expect(deleteApiKey(db, DEMO_ID, key.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await deleteApiKey(db, id, key.id)).toEqual({ id: key.id });
  });

  it('creates a key shown once, lists it masked, accepts it as a bearer and deletes it', async () => {
    const { api } = await newUser();
    const created = await api.createApiKey();
    if (!created.ok) throw new Error(created.error);
    const key = created.data;
    expect(key.secret).toMatch(/^lime_[A-Za-z0-9_-]{43}$/);
    expect(key.display_value).toBe(`lime_…${key.secret.slice(-4)}`);
    const lifetime = (Date.parse(key.expiration_date) - Date.parse(key.created_at)) / 86_400_000;
    expect(Math.round(lifetime)).toBe(API_KEY_DEFAULT_LIFETIME_DAYS);

    const listed = await api.apiKeys();
    expect(listed).toMatchObject({ ok: true, data: [{ id: key.id, display_value: key.display_value }] });
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    const stored = await server.platform.database.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key.secret);

    // The key authenticates service calls and counts them in the usage statistics.
    const viaKey = apiClients(server, key.secret).modelManagement;
    expect(await viaKey.modelHostingInformation({ model_id: 'lime-chat-8b' })).toMatchObject({
      ok: true,
      data: { model_id: 'lime-chat-8b' },
    });
    expect(await viaKey.modelDescriptors()).toMatchObject({ ok: true });
    const usage = await api.usageStatistics();
    if (!usage.ok) throw new Error(usage.error);
    expect(usage.data.monthly_api_calls).toHaveLength(12);
    expect(usage.data.monthly_api_calls.at(-1)!.calls).toBe(2);
    expect(usage.data.monthly_api_calls.map((m) => m.month)).toEqual([...usage.data.monthly_api_calls.map((m) => m.month)].sort());

    expect(await api.deleteApiKey(key.id)).toMatchObject({ ok: true, data: { id: key.id } });
    expect(await viaKey.modelHostingInformation({ model_id: 'lime-chat-8b' })).toMatchObject({
      ok: false,
      status: 401,
      error: 'Invalid API key',
    });
    expect(await api.deleteApiKey(key.id)).toMatchObject({ ok: false, status: 404, error: `api_key_id: no API key ${key.id} among yours` });
  });

  it('a key has the name its owner gave, the scopes keys have, and the time of its last use (issue 39, item 4)', async () => {
    const { api } = await newUser();
    const created = await api.createApiKey(30, '  CI deploys  ');
    if (!created.ok) throw new Error(created.error);
    expect(created.data).toMatchObject({ name: 'CI deploys', scopes: ['services:run', 'services:publish'], last_used_at: null });
    expect(await api.createApiKey(30, '   ')).toMatchObject({ ok: false, status: 422, error: 'name: must not be empty' });
    expect(await api.createApiKey(30, 'x'.repeat(61))).toMatchObject({
      ok: false,
      status: 422,
      error: 'name: must be at most 60 characters',
    });
    const before = Date.now();
    expect(await apiClients(server, created.data.secret).modelManagement.modelDescriptors()).toMatchObject({ ok: true });
    const listed = await api.apiKeys();
    if (!listed.ok) throw new Error(listed.error);
    const used = listed.data.find((key) => key.id === created.data.id)!;
    expect(used.name).toBe('CI deploys');
    expect(Date.parse(used.last_used_at!)).toBeGreaterThanOrEqual(before - 1000);
    // The key is still stored only as its hash.
    const stored = await server.platform.database.db.selectFrom('api_keys').selectAll().where('id', '=', used.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.data.secret);
  });

  it('validates the lifetime and the id, and refuses expired keys', async () => {
    const { api, id } = await newUser();
    expect(await api.createApiKey(0)).toMatchObject({ ok: false, status: 422, error: expect.stringMatching(/^expires_in_days: /) });
    expect(await api.createApiKey(1.5)).toMatchObject({ ok: false, status: 422, error: 'expires_in_days: must be a whole number of days' });
    expect(await api.deleteApiKey('not-a-uuid')).toMatchObject({ ok: false, status: 422, error: 'api_key_id: must be an API key id' });
    const created = await api.createApiKey(30);
    if (!created.ok) throw new Error(created.error);
    await server.platform.database.db
      .updateTable('api_keys')
      .set({ expiration_date: new Date(Date.now() - 1000) })
      .where('user_id', '=', id)
      .execute();
    const expired = await apiClients(server, created.data.secret).modelManagement.modelHostingInformation({ model_id: 'lime-chat-8b' });
    expect(expired).toMatchObject({
      ok: false,
      status: 401,
      error: expect.stringMatching(/^API key expired on \d{4}-\d{2}-\d{2}; create a new one$/),
    });
  });

  it('another user cannot delete my key', async () => {
    const me = await newUser();
    const other = await newUser();
    const created = await me.api.createApiKey();
    if (!created.ok) throw new Error(created.error);
    expect(await other.api.deleteApiKey(created.data.id)).toMatchObject({ ok: false, status: 404 });
    expect((await me.api.apiKeys()).ok && (await me.api.apiKeys())).toMatchObject({ data: [{ id: created.data.id }] });
  });
});

describe('registry credentials (PAT)', () => {
  it('stores the token sealed at rest, returns it masked, replaces by alias and deletes', async () => {
    const { api, id } = await newUser();
    const pat = 'dckr_pat_Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5';
    const saved = await api.upsertPat({ foreign_username: 'grace', credential_alias: 'ci', pat });
    expect(saved).toMatchObject({
      ok: true,
      data: { foreign_username: 'grace', credential_alias: 'ci', alias: 'dockerhub/ci', platform: 'dockerhub', pat: '••••••••Nzg5' },
    });
    const masked = saved.ok ? saved.data.pat : '';
    expect(masked).not.toContain(pat.slice(0, -4));
    expect(masked.endsWith(pat.slice(-4))).toBe(true);

    const row = await server.platform.database.db
      .selectFrom('registry_credentials')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.pat_enc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(pat);

    const replaced = await api.upsertPat({ foreign_username: 'grace2', credential_alias: 'ci', pat: `${pat}X` });
    expect(replaced.ok && replaced.data.id).toBe(saved.ok && saved.data.id);
    const list = await api.getPatToken();
    expect(list).toMatchObject({ ok: true, data: [{ foreign_username: 'grace2' }] });
    expect(JSON.stringify(list)).not.toContain(pat);

    expect(await api.deletePat(saved.ok ? saved.data.id : '')).toMatchObject({ ok: true });
    expect(await api.getPatToken()).toMatchObject({ ok: true, data: [] });
  });

  it('rejects bad input with 422 details', async () => {
    const { api } = await newUser();
    expect(await api.upsertPat({ foreign_username: 'x', credential_alias: 'ci', pat: 'dckr_pat_abcdefgh' })).toMatchObject({
      ok: false,
      status: 422,
      error: expect.stringMatching(/^foreign_username: must be a Docker Hub user name/),
    });
    expect(await api.upsertPat({ foreign_username: 'grace', credential_alias: '', pat: 'dckr_pat_abcdefgh' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'credential_alias: must not be empty',
    });
    expect(await api.upsertPat({ foreign_username: 'grace', credential_alias: 'ci', pat: 'short' })).toMatchObject({
      ok: false,
      status: 422,
      error: 'pat: must be an access token of at least 8 characters',
    });
    expect(
      await api.client.post('upsert_pat', {
        foreign_username: 'grace',
        credential_alias: 'ci',
        pat: 'dckr_pat_abcdefgh',
        platform: 'ghcr',
      }),
    ).toMatchObject({ ok: false, status: 422, error: 'platform: must be dockerhub or registry' });
    // Another registry is platform "registry" with its host[:port]; dockerhub means docker.io.
    for (const [registry, error] of [
      ['ghcr.io', 'registry: a dockerhub credential is for docker.io; use platform "registry" for another registry'],
      ['not a host', 'registry: must be a registry host[:port], e.g. ghcr.io or 127.0.0.1:5000'],
    ]) {
      const platform = registry === 'ghcr.io' ? 'dockerhub' : 'registry';
      expect(
        await api.client.post('upsert_pat', {
          foreign_username: 'grace',
          credential_alias: 'ci',
          pat: 'dckr_pat_abcdefgh',
          registry,
          platform,
        }),
      ).toMatchObject({ ok: false, status: 422, error });
    }
    expect(await api.deletePat('00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
    expect(await api.getPatToken()).toMatchObject({ ok: true, data: [] });
  });
});
