import type { Context } from 'hono';
import type { AuthDeps } from './deps';
import { badRequest, oauthError } from './errors';
import { rateLimit, readBody, stringField } from './request';

// POST /token?grant_type=id_token (supabase-js signInWithIdToken). This server verifies no
// provider's ID tokens, so every provider answers as GoTrue does for one that is off: 400
// `provider_disabled` "Provider (issuer "...") is not enabled". Sign-in with a provider goes
// through the redirect flow (/authorize, oauth.ts) instead.

/** The issuer GoTrue names for each built-in provider (supabase/auth, internal/api/provider). */
const ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  azure: 'https://login.microsoftonline.com/common/v2.0',
  facebook: 'https://www.facebook.com',
  google: 'https://accounts.google.com',
  kakao: 'https://kauth.kakao.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  vercel_marketplace: 'https://marketplace.vercel.com',
};

export async function idTokenGrant(c: Context, deps: AuthDeps): Promise<never> {
  await rateLimit(c, deps, 'signIn');
  const body = await readBody(c);
  const idToken = stringField(body, 'id_token');
  const provider = stringField(body, 'provider') ?? '';
  const issuer = stringField(body, 'issuer') ?? '';
  const clientId = stringField(body, 'client_id') ?? '';
  if (!idToken) throw oauthError(400, 'invalid request', 'id_token required', 'validation_failed');
  if (!provider && (!clientId || !issuer))
    throw oauthError(400, 'invalid request', 'provider or client_id and issuer required', 'validation_failed');
  const known = Object.entries(ISSUERS).find(([name, iss]) => name === provider || iss === issuer);
  if (known) {
    // A provider configured for the redirect flow is still off for ID tokens: say which.
    const redirectOnly = (deps.config.oauth as Record<string, unknown>)[known[0]] ? ' for ID token sign-in' : '';
    throw badRequest('provider_disabled', `Provider (issuer ${JSON.stringify(known[1])}) is not enabled${redirectOnly}`);
  }
  if (provider.startsWith('custom:')) throw badRequest('validation_failed', 'Custom OAuth providers are disabled');
  throw badRequest('validation_failed', `Custom OIDC provider ${JSON.stringify(provider)} not allowed`);
}
