import { Hono } from 'hono';
import { bodyLimit } from '../http/bodyLimit';
import { HTTPException } from 'hono/http-exception';
import { OAUTH_PROVIDERS } from '../config/core';
import { logRequestFailure } from '../http/errorLog';
import { safeEqual } from '../crypto/tokens';
import { adminRoutes } from './adminRoutes';
import type { AuthDeps } from './deps';
import { API_VERSION, API_VERSION_HEADER, AuthHttpError } from './errors';
import { mfaRoutes } from './mfa';
import { reauthenticateRoutes } from './reauthenticate';
import { cachedServiceRoleKey, requireServiceRole } from './serviceRole';
import { oauthRoutes } from './oauth';
import { signupRoutes } from './signup';
import { tokenRoutes } from './token';
import { userRoutes } from './userRoutes';
import { verifyRoutes } from './verify';

// The Supabase-Auth-compatible API, mounted at /auth/v1.

/** Opened by a browser navigation (no headers) or public by nature: no apikey required. */
const OPEN_PATHS = ['/verify', '/authorize', '/callback', '/.well-known/jwks.json', '/health'];
const MAX_BODY_BYTES = 256 * 1024;

export function authRoutes(deps: AuthDeps, publishableKey: string) {
  const app = new Hono();
  const serviceKey = cachedServiceRoleKey(deps.db, deps.config.apiKeys.serviceRole);

  app.use('*', async (c, next) => {
    c.header(API_VERSION_HEADER, API_VERSION);
    const path = c.req.path.replace(/^\/auth\/v1/, '') || '/';
    if (c.req.method !== 'OPTIONS' && !OPEN_PATHS.includes(path)) {
      const key = c.req.header('apikey') ?? c.req.query('apikey');
      if (!key) return c.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
      if (!safeEqual(key, publishableKey) && !safeEqual(key, await serviceKey()))
        return c.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
    }
    await next();
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        c.json(new AuthHttpError(400, 'request_too_large', `Request body too large: the limit is ${MAX_BODY_BYTES} bytes`).body(), 413, {
          Connection: 'close',
        }),
    }),
  );

  app.get('/health', (c) =>
    c.json({ version: 'limelight', name: 'GoTrue', description: 'GoTrue-compatible auth of the Limelight platform server' }),
  );

  app.get('/settings', (c) =>
    c.json({
      external: {
        email: true,
        phone: false,
        anonymous_users: false,
        ...Object.fromEntries(OAUTH_PROVIDERS.map((p) => [p, !!deps.config.oauth[p]])),
      },
      disable_signup: deps.config.disableSignup,
      mailer_autoconfirm: deps.config.mailerAutoconfirm,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  app.get('/.well-known/jwks.json', (c) => {
    c.header('Cache-Control', 'public, max-age=600');
    return c.json(deps.keys.jwks());
  });

  // The admin API answers the service-role key only, never a user's session (serviceRole.ts).
  for (const path of ['/admin/*', '/invite']) {
    app.use(path, async (c, next) => {
      await requireServiceRole(c, serviceKey);
      await next();
    });
  }
  app.route('/', adminRoutes(deps));
  app.route('/', signupRoutes(deps));
  app.route('/', reauthenticateRoutes(deps));
  app.route('/', tokenRoutes(deps));
  app.route('/', verifyRoutes(deps));
  app.route('/', userRoutes(deps));
  app.route('/', mfaRoutes(deps));
  app.route('/', oauthRoutes(deps));

  app.notFound((c) => c.json(new AuthHttpError(404, 'not_found', `No route ${c.req.method} ${c.req.path}`).body(), 404));

  app.onError((error, c) => {
    c.header(API_VERSION_HEADER, API_VERSION);
    if (error instanceof AuthHttpError) return c.json(error.body(), error.status);
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 413 ? 'request_too_large' : 'validation_failed';
      return c.json(new AuthHttpError(400, code, error.message || 'Bad request').body(), error.status);
    }
    logRequestFailure('auth', c, error);
    return c.json(
      new AuthHttpError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information').body(),
      500,
    );
  });

  return app;
}
