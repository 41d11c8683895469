import { Hono, type Context } from 'hono';
import { randomToken } from '../crypto/tokens';
import { OAUTH_PROVIDERS, type OAuthClientConfig, type OAuthProviderName } from '../config/core';
import type { AuthDeps } from './deps';
import { createFlowState, issueAuthCode, readPkce } from './pkce';
import { insertIdentity, insertOAuthState, selectIdentityByProvider, takeOAuthState, updateUserRow } from './queries';
import { DEFAULT_REDIRECT_PATHS, safeRedirect, withFragment, withQuery } from './redirects';
import { clientInfo, rateLimit } from './request';
import { signIn } from './sessions';
import { confirmEmail, findUserByEmail, findUserById, insertUser, normalizeEmail } from './userRecords';

// Social sign-in (product-rules §7: Google, Azure, GitHub, Facebook) with the authorization-code flow.
// GET /authorize sends the browser to the provider when its client is configured
// (OAUTH_<PROVIDER>_CLIENT_ID / _SECRET), and otherwise straight back to redirect_to with an
// error the app can show. GET /callback exchanges the code, finds or creates the user and
// returns to the app with a session (implicit flow) or an auth code (PKCE).

interface ProviderDefaults {
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scopes: string;
}

const PROVIDERS: Record<OAuthProviderName, ProviderDefaults> = {
  google: {
    authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: 'https://oauth2.googleapis.com/token',
    userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    scopes: 'openid email profile',
  },
  azure: {
    authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    userinfoUrl: 'https://graph.microsoft.com/oidc/userinfo',
    scopes: 'openid profile email offline_access',
  },
  github: {
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    userinfoUrl: 'https://api.github.com/user',
    scopes: 'read:user user:email',
  },
  facebook: {
    authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfoUrl: 'https://graph.facebook.com/me?fields=id,name,email,picture',
    scopes: 'email public_profile',
  },
};

const STATE_TTL_MS = 10 * 60 * 1000;

class OAuthFlowError extends Error {
  override name = 'OAuthFlowError';
  constructor(
    readonly error: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ProviderUser {
  id: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  avatarUrl: string | undefined;
}

const isProvider = (p: string | undefined): p is OAuthProviderName => (OAUTH_PROVIDERS as readonly string[]).includes(p ?? '');

function errorRedirect(target: string, pkce: boolean, error: string, code: string, description: string): string {
  const params = { error, error_code: code, error_description: description };
  return pkce ? withQuery(target, params) : withFragment(target, params);
}

async function fetchJson(url: string, init: RequestInit, what: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new OAuthFlowError('server_error', 'unexpected_failure', `Could not reach the provider for ${what}: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof body.error === 'string') {
    const detail = typeof body.error_description === 'string' ? body.error_description : String(body.error ?? response.status);
    throw new OAuthFlowError('server_error', 'unexpected_failure', `The provider refused the ${what}: ${detail}`);
  }
  return body;
}

async function providerUser(name: OAuthProviderName, urls: ProviderDefaults, accessToken: string): Promise<ProviderUser> {
  const headers = { Authorization: `Bearer ${accessToken}`, Accept: 'application/json', 'User-Agent': 'limelight' };
  const info = await fetchJson(urls.userinfoUrl, { headers }, 'user information');
  let email = typeof info.email === 'string' ? info.email : undefined;
  let verified = info.email_verified === undefined ? !!email : info.email_verified === true || info.email_verified === 'true';
  if (name === 'github' && !email) {
    // GitHub hides private addresses from /user; /user/emails lists them with their status.
    const list = await fetchJson(`${urls.userinfoUrl.replace(/\/+$/, '')}/emails`, { headers }, 'e-mail addresses').catch(() => null);
    const entries = Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];
    const primary = entries.find((e) => e.primary && e.verified) ?? entries.find((e) => e.verified);
    if (primary && typeof primary.email === 'string') {
      email = primary.email;
      verified = true;
    }
  }
  const picture = info.picture as unknown;
  const avatar =
    typeof picture === 'string'
      ? picture
      : typeof (picture as { data?: { url?: unknown } } | undefined)?.data?.url === 'string'
        ? (picture as { data: { url: string } }).data.url
        : typeof info.avatar_url === 'string'
          ? info.avatar_url
          : undefined;
  const id = info.sub ?? info.id;
  if (id === undefined || id === null) throw new OAuthFlowError('server_error', 'unexpected_failure', 'The provider returned no user id');
  return {
    id: String(id),
    email,
    emailVerified: verified,
    name: typeof info.name === 'string' ? info.name : typeof info.login === 'string' ? info.login : undefined,
    avatarUrl: avatar,
  };
}

export function oauthRoutes(deps: AuthDeps) {
  const app = new Hono();
  const { config } = deps;
  const callbackUrl = `${config.publicUrl}/auth/v1/callback`;
  const urlsOf = (name: OAuthProviderName, client: OAuthClientConfig): ProviderDefaults => ({
    ...PROVIDERS[name],
    ...(client.authorizeUrl ? { authorizeUrl: client.authorizeUrl } : {}),
    ...(client.tokenUrl ? { tokenUrl: client.tokenUrl } : {}),
    ...(client.userinfoUrl ? { userinfoUrl: client.userinfoUrl } : {}),
  });

  app.get('/authorize', async (c) => {
    await rateLimit(c, deps, 'signIn');
    const provider = c.req.query('provider');
    const redirectTo = safeRedirect(config, c.req.query('redirect_to'), DEFAULT_REDIRECT_PATHS.oauth);
    const query = c.req.query();
    let pkce;
    try {
      pkce = readPkce(query);
    } catch {
      return c.redirect(errorRedirect(redirectTo, true, 'invalid_request', 'validation_failed', 'Invalid code_challenge'), 303);
    }
    const client = isProvider(provider) ? config.oauth[provider] : undefined;
    if (!isProvider(provider) || !client) {
      const description = isProvider(provider)
        ? `Unsupported provider: ${provider} is not enabled`
        : 'Unsupported provider: provider is not enabled';
      return c.redirect(errorRedirect(redirectTo, !!pkce, 'invalid_request', 'provider_disabled', description), 303);
    }
    const urls = urlsOf(provider, client);
    const state = randomToken(24);
    await deps.db.transaction().execute(async (trx) => {
      const flowStateId = pkce ? await createFlowState(trx, pkce, { authMethod: 'oauth', provider, redirectTo }) : null;
      await insertOAuthState(trx, { id: state, provider, redirect_to: redirectTo, flow_state_id: flowStateId });
    });
    const target = new URL(urls.authorizeUrl);
    target.searchParams.set('client_id', client.clientId);
    target.searchParams.set('redirect_uri', callbackUrl);
    target.searchParams.set('response_type', 'code');
    target.searchParams.set('scope', c.req.query('scopes')?.trim() || urls.scopes);
    target.searchParams.set('state', state);
    return c.redirect(target.toString(), 302);
  });

  const callback = async (c: Context) => {
    const params = c.req.method === 'POST' ? ((await c.req.parseBody()) as Record<string, string>) : c.req.query();
    const stateId = typeof params.state === 'string' ? params.state : '';
    const state = stateId ? await takeOAuthState(deps.db, stateId) : undefined;
    if (!state || Date.now() - state.created_at.getTime() > STATE_TTL_MS) {
      return c.redirect(
        errorRedirect(
          `${config.publicUrl}${DEFAULT_REDIRECT_PATHS.oauth}`,
          false,
          'invalid_request',
          'bad_oauth_state',
          'OAuth state parameter missing or expired',
        ),
        303,
      );
    }
    const pkce = !!state.flow_state_id;
    const provider = state.provider as OAuthProviderName;
    const client = config.oauth[provider];
    try {
      if (typeof params.error === 'string') {
        throw new OAuthFlowError(params.error, 'provider_error', String(params.error_description ?? params.error));
      }
      if (!client) throw new OAuthFlowError('invalid_request', 'provider_disabled', `Unsupported provider: ${provider} is not enabled`);
      if (typeof params.code !== 'string' || !params.code)
        throw new OAuthFlowError('invalid_request', 'bad_oauth_callback', 'OAuth callback with missing authorization code');
      const urls = urlsOf(provider, client);
      const tokens = await fetchJson(
        urls.tokenUrl,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code: params.code,
            redirect_uri: callbackUrl,
            client_id: client.clientId,
            client_secret: client.clientSecret,
          }),
        },
        'code exchange',
      );
      if (typeof tokens.access_token !== 'string')
        throw new OAuthFlowError('server_error', 'unexpected_failure', 'The provider returned no access token');
      const profile = await providerUser(provider, urls, tokens.access_token);
      if (!profile.email)
        throw new OAuthFlowError('server_error', 'provider_email_needs_verification', 'Error getting user email from external provider');

      const outcome = await deps.db.transaction().execute(async (trx) => {
        const identity = await selectIdentityByProvider(trx, provider, profile.id);
        let user = identity ? await findUserById(trx, identity.user_id) : await findUserByEmail(trx, normalizeEmail(profile.email!));
        const providerData = { name: profile.name, full_name: profile.name, avatar_url: profile.avatarUrl, provider_id: profile.id };
        if (!user) {
          user = await insertUser(trx, {
            email: profile.email!,
            passwordHash: null,
            metadata: providerData,
            confirmed: profile.emailVerified,
            provider,
            providerId: profile.id,
            providerData,
          });
          await deps.onUserCreated(trx, user.id);
        } else if (!identity) {
          // Linking to an existing account needs an address the provider has verified.
          if (!profile.emailVerified)
            throw new OAuthFlowError(
              'server_error',
              'provider_email_needs_verification',
              'Unverified email with ' + provider + '. A confirmation email is needed first.',
            );
          await insertIdentity(trx, {
            user_id: user.id,
            provider,
            provider_id: profile.id,
            identity_data: JSON.stringify({ ...providerData, sub: profile.id, email: profile.email, email_verified: true }),
          });
          const providers = new Set([...((user.raw_app_meta_data.providers as string[]) ?? ['email']), provider]);
          await updateUserRow(trx, user.id, {
            raw_app_meta_data: JSON.stringify({ ...user.raw_app_meta_data, providers: [...providers] }),
          });
          if (!user.email_confirmed_at) user = await confirmEmail(trx, user, 'other');
          user = (await findUserById(trx, user.id))!;
        }
        if (state.flow_state_id) return { code: await issueAuthCode(trx, state.flow_state_id, user.id) };
        return { session: await signIn(trx, deps, user, 'oauth', clientInfo(c, deps)) };
      });
      if ('code' in outcome && outcome.code) return c.redirect(withQuery(state.redirect_to, { code: outcome.code }), 303);
      const session = outcome.session!;
      return c.redirect(
        withFragment(state.redirect_to, {
          access_token: session.access_token,
          expires_at: session.expires_at,
          expires_in: session.expires_in,
          refresh_token: session.refresh_token,
          token_type: 'bearer',
          provider_token: tokens.access_token,
        }),
        303,
      );
    } catch (error) {
      if (!(error instanceof OAuthFlowError)) throw error;
      return c.redirect(errorRedirect(state.redirect_to, pkce, error.error, error.code, error.message), 303);
    }
  };
  app.get('/callback', callback);
  app.post('/callback', callback);

  return app;
}
