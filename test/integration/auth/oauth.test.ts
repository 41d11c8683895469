import { AuthImplicitGrantRedirectError } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { fakeOAuthProvider } from '../fakes';
import { confirmedUser, follow, fragmentOf, globalServer, supabase, uniqueEmail } from '../helpers';

// Social sign-in (product-rules §7: google, azure, github, facebook). Unconfigured providers send the
// browser back with an error the UI shows; a configured one runs the authorization-code flow
// against the provider (here a stand-in at OAUTH_<P>_*_URL).

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
  delete (globalThis as { document?: unknown }).document;
});

async function authorizeUrl(
  target: { url: string; authKey: string },
  provider: 'google' | 'azure' | 'github' | 'facebook',
  redirectTo: string,
  scopes?: string,
) {
  const { data, error } = await supabase(target).auth.signInWithOAuth({
    provider,
    options: { redirectTo, scopes, skipBrowserRedirect: true },
  });
  expect(error).toBeNull();
  return data.url!;
}

describe('unconfigured providers', () => {
  const target = globalServer();

  it.each(['google', 'azure', 'github', 'facebook'] as const)('%s redirects back with provider_disabled', async (provider) => {
    const redirectTo = `${target.url}/signinup?page_state=1`;
    const { status, location } = await follow(await authorizeUrl(target, provider, redirectTo));
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(redirectTo);
    expect(Object.fromEntries(fragmentOf(location))).toEqual({
      error: 'invalid_request',
      error_code: 'provider_disabled',
      error_description: `Unsupported provider: ${provider} is not enabled`,
    });
  });

  it('supabase-js in the browser turns that redirect into AuthImplicitGrantRedirectError', async () => {
    const { location } = await follow(await authorizeUrl(target, 'github', `${target.url}/signinup`));
    const href = location.toString();
    Object.assign(globalThis, {
      window: {
        location: { href, hash: location.hash },
        history: { state: null, replaceState() {} },
        addEventListener() {},
        removeEventListener() {},
      },
      document: { visibilityState: 'visible', addEventListener() {}, removeEventListener() {} },
    });
    const { error } = await supabase(target, { detectSessionInUrl: true }).auth.initialize();
    expect(error).toBeInstanceOf(AuthImplicitGrantRedirectError);
    expect((error as AuthImplicitGrantRedirectError).details).toEqual({ error: 'invalid_request', code: 'provider_disabled' });
  });
});

describe('configured provider (authorization-code flow)', () => {
  let provider: Awaited<ReturnType<typeof fakeOAuthProvider>>;
  let server: PlatformTestServer;

  beforeAll(async () => {
    provider = await fakeOAuthProvider();
    const urls = (p: string) => ({
      [`OAUTH_${p}_CLIENT_ID`]: `${p.toLowerCase()}-client`,
      [`OAUTH_${p}_CLIENT_SECRET`]: `${p.toLowerCase()}-secret`,
      [`OAUTH_${p}_AUTHORIZE_URL`]: `${provider.base}/authorize`,
      [`OAUTH_${p}_TOKEN_URL`]: `${provider.base}/token`,
      [`OAUTH_${p}_USERINFO_URL`]: `${provider.base}/user`,
    });
    server = await startPlatformServer({ env: { ...urls('GITHUB'), ...urls('AZURE') } });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  async function startFlow(name: 'github' | 'azure', scopes?: string) {
    const redirectTo = `${server.url}/account`;
    const { status, location } = await follow(await authorizeUrl(server, name, redirectTo, scopes));
    expect(status).toBe(302);
    expect(`${location.origin}${location.pathname}`).toBe(`${provider.base}/authorize`);
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/auth/v1/callback`);
    expect(location.searchParams.get('response_type')).toBe('code');
    return { state: location.searchParams.get('state')!, location, redirectTo };
  }

  it('settings list the configured providers', async () => {
    const settings = await (await fetch(`${server.url}/auth/v1/settings`, { headers: { apikey: server.authKey } })).json();
    expect(settings.external).toMatchObject({ github: true, azure: true, google: false, facebook: false });
  });

  it('creates a confirmed user from the provider profile and returns a session to the app', async () => {
    provider.state.user = {
      id: 4242,
      login: 'octocat',
      name: 'Octo Cat',
      email: null,
      emails: [{ email: 'octo@example.test', primary: true, verified: true }],
    };
    const { state, location: authorize, redirectTo } = await startFlow('github');
    expect(authorize.searchParams.get('client_id')).toBe('github-client');

    const { status, location } = await follow(`${server.url}/auth/v1/callback?code=good-code&state=${state}`);
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = fragmentOf(location);
    expect(fragment.get('provider_token')).toBe('provider-access-token');
    expect(provider.state.tokenRequests.at(-1)!.get('client_secret')).toBe('github-secret');

    const { data } = await supabase(server).auth.getUser(fragment.get('access_token')!);
    expect(data.user).toMatchObject({ email: 'octo@example.test', app_metadata: { provider: 'github', providers: ['github'] } });
    expect(data.user!.email_confirmed_at).toEqual(expect.any(String));
    expect(data.user!.identities![0]).toMatchObject({ provider: 'github', id: '4242' });
    expect(data.user!.user_metadata).toMatchObject({ full_name: 'Octo Cat' });

    // The same provider account signs in to the same user next time; a state is good once.
    const again = await startFlow('github');
    const second = fragmentOf((await follow(`${server.url}/auth/v1/callback?code=good-code&state=${again.state}`)).location);
    expect((await supabase(server).auth.getUser(second.get('access_token')!)).data.user!.id).toBe(data.user!.id);
    const replay = await follow(`${server.url}/auth/v1/callback?code=good-code&state=${again.state}`);
    expect(fragmentOf(replay.location).get('error_code')).toBe('bad_oauth_state');
  });

  it('links a verified provider address to the existing account', async () => {
    const credentials = await confirmedUser(server, 'linked');
    provider.state.user = { id: 'azure-77', name: 'Linked Person', email: credentials.email };
    const { state, location } = await startFlow('azure', 'openid profile email offline_access');
    expect(location.searchParams.get('scope')).toBe('openid profile email offline_access');
    const fragment = fragmentOf((await follow(`${server.url}/auth/v1/callback?code=good-code&state=${state}`)).location);
    const { data } = await supabase(server).auth.getUser(fragment.get('access_token')!);
    expect(data.user!.identities!.map((i) => i.provider).sort()).toEqual(['azure', 'email']);
    expect(data.user!.app_metadata.providers).toEqual(['email', 'azure']);
    expect((await supabase(server).auth.signInWithPassword(credentials)).data.user!.id).toBe(data.user!.id);
  });

  it('confirming a pre-registered address through the provider removes the password set before (issue 11)', async () => {
    // Someone signed up with the victim's address and never confirmed; the victim uses GitHub.
    const email = uniqueEmail('prereg');
    const attacker = { email, password: 'attacker-password-1' };
    expect((await supabase(server).auth.signUp(attacker)).error).toBeNull();
    provider.state.user = { id: 9090, login: 'victim', name: 'Victim', email: null, emails: [{ email, primary: true, verified: true }] };
    const { state } = await startFlow('github');
    const fragment = fragmentOf((await follow(`${server.url}/auth/v1/callback?code=good-code&state=${state}`)).location);
    const { data } = await supabase(server).auth.getUser(fragment.get('access_token')!);
    expect(data.user!.email_confirmed_at).toEqual(expect.any(String));
    expect((await supabase(server).auth.signInWithPassword(attacker)).error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('brings provider refusals and failed exchanges back as errors on the redirect', async () => {
    const denied = await startFlow('github');
    const refusal = await follow(
      `${server.url}/auth/v1/callback?error=access_denied&error_description=The+user+denied+access&state=${denied.state}`,
    );
    expect(Object.fromEntries(fragmentOf(refusal.location))).toMatchObject({
      error: 'access_denied',
      error_description: 'The user denied access',
    });

    const bad = await startFlow('github');
    const failed = await follow(`${server.url}/auth/v1/callback?code=bad-code&state=${bad.state}`);
    expect(fragmentOf(failed.location).get('error_description')).toMatch(/The provider refused the code exchange/);
  });
});
