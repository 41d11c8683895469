import { beforeAll, describe, expect, it } from 'vitest';
import { createPlatformClients, TOKENS_MISSING_ERROR } from '../../../src/api';
import { createTokenSource } from '../../../src/api/token';
import { confirmedUser, globalServer, signedIn } from '../helpers';

// The client layer (docs/architecture.md, "The client layer"): the one token rule, on the wire
// against the unit run's real platform server.

const target = globalServer();
let token: string;
let apiKey: string;

beforeAll(async () => {
  const { session } = await signedIn(target, await confirmedUser(target, 'client-layer'));
  token = session.access_token;
  const created = await createPlatformClients({ baseURL: target.url, accessToken: token }).profile.createApiKey(1);
  if (!created.ok) throw new Error(created.error);
  apiKey = created.data.secret;
});

const jobsWith = (options: Parameters<typeof createPlatformClients>[0]) => createPlatformClients(options).jobs;

describe('createTokenSource', () => {
  it('tries the explicit token, the API key, the host getter, then the session, in that order', async () => {
    const all = { accessToken: 'a', apiKey: 'k', getAccessToken: () => 'g', session: { getAccessToken: async () => 's' } };
    expect(await createTokenSource(all)()).toBe('a');
    expect(await createTokenSource({ ...all, accessToken: null })()).toBe('k');
    expect(await createTokenSource({ ...all, accessToken: null, apiKey: null })()).toBe('g');
    expect(await createTokenSource({ ...all, accessToken: null, apiKey: null, getAccessToken: () => null })()).toBe('s');
    expect(await createTokenSource({})()).toBeNull();
  });

  it('reads the getters on every call (a later sign-in is seen) and treats a throwing getter as no token', async () => {
    let current: string | null = null;
    const source = createTokenSource({
      getAccessToken: () => {
        throw new Error('host auth broke');
      },
      session: { getAccessToken: async () => current },
    });
    expect(await source()).toBeNull();
    current = 'after-sign-in';
    expect(await source()).toBe('after-sign-in');
  });
});

describe('the token rule on the wire', () => {
  it('an API key is sent as the bearer and the server accepts it', async () => {
    expect(await jobsWith({ baseURL: target.url, apiKey }).list()).toMatchObject({ ok: true, status: 200 });
  });

  it('falls back to the session store when the host gives no token', async () => {
    const jobs = jobsWith({ baseURL: target.url, getAccessToken: () => null, session: { getAccessToken: async () => token } });
    expect(await jobs.list()).toMatchObject({ ok: true, status: 200 });
  });

  it("the host's token wins over the session: a bad host token is refused, not silently replaced", async () => {
    const jobs = jobsWith({ baseURL: target.url, getAccessToken: () => 'not-a-token', session: { getAccessToken: async () => token } });
    expect(await jobs.list()).toMatchObject({ ok: false, status: 401 });
  });

  it('without any token a required call fails with the one "Login first" text', async () => {
    expect(await jobsWith({ baseURL: target.url, session: { getAccessToken: async () => null } }).list()).toMatchObject({
      ok: false,
      status: 401,
      error: TOKENS_MISSING_ERROR,
    });
  });
});
