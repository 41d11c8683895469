import { Hono, type Context } from 'hono';
import { apiRoutes } from './v1/mounts';
import type { ApiDeps } from './v1/deps';
import type { AuthDeps } from './auth/deps';
import { API_VERSION, API_VERSION_HEADER, AuthHttpError } from './auth/errors';
import type { DatabaseHandle } from './db/connect';
import { authRoutes } from './auth/routes';
import type { CatalogueCache } from './http/catalogueCache';
import { catalogueFastLane } from './http/catalogueFastLane';
import { compression } from './http/compression';
import { corsMiddleware } from './http/cors';
import { databaseOutage, healthRoutes } from './http/databaseOutage';
import type { PlatformMetrics } from './http/metrics';
import { inputGuard } from './http/inputGuard';
import { requestContext } from './http/requestContext';
import { securityHeaders, serverPagePolicy } from './http/securityHeaders';
import { siteRenderer } from './http/siteRenderer';
import { mailboxRoutes } from './mail/mailboxRoutes';
import { coverRoutes } from './media/coverRoutes';
import { exampleMediaDir, exampleMediaRoutes } from './media/exampleMedia';
import { mediaFileRoutes } from './media/routes';
import { sandboxCheckoutRoutes } from './payments/sandboxPages';

// The whole site on one origin: /auth/v1 (auth), /v1 (platform API), /config.json, the dev
// mailbox, generated model images, the sandbox checkout and, for every other GET, the app.

export interface AppOptions {
  auth: AuthDeps;
  api: ApiDeps;
  publishableKey: string;
  /** false when Vite serves the app (--dev) or for API-only test servers. */
  serveApp: boolean;
  /** Catalogue reads from memory with ETag/304 (docs/deploy.md); omitted: straight to the routes. */
  catalogue?: CatalogueCache;
  /** For the health checks and the 503 of a request made while it is unreachable. */
  database: DatabaseHandle;
  /** /metrics and the request counters (docs/deploy.md, "Metrics"). */
  metrics: PlatformMetrics;
}

/** The input guard's 400, in GoTrue's error shape on the auth API and `{ detail }` elsewhere. */
function badInputAnswer(c: Context, message: string): Response {
  if (c.req.path.startsWith('/auth/')) {
    c.header(API_VERSION_HEADER, API_VERSION);
    return c.json(new AuthHttpError(400, 'validation_failed', message).body(), 400);
  }
  return c.json({ detail: message }, 400);
}

export function createApp({ auth, api, publishableKey, serveApp, catalogue, database, metrics }: AppOptions) {
  const { config } = api;
  const app = new Hono();

  app.use('*', metrics.middleware);
  app.use('*', requestContext({ logRequests: config.logRequests }));
  app.use('*', databaseOutage(database.health));
  app.use('*', securityHeaders(config));
  app.use('*', inputGuard(badInputAnswer));
  for (const path of ['/dev/*', '/sandbox/*', '/v1/support/unsubscribe']) app.use(path, serverPagePolicy);
  const cors = corsMiddleware(config);
  for (const path of ['/auth/v1/*', '/v1/*', '/config.json', '/media/*']) app.use(path, cors);
  app.use('/v1/*', compression());
  if (catalogue) app.use('/v1/*', catalogue.middleware());

  app.get('/config.json', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.json({ apiUrl: config.publicUrl, authUrl: config.publicUrl, authKey: publishableKey });
  });
  app.route('/health', healthRoutes(database));
  app.get('/metrics', metrics.handler);

  app.route('/auth/v1', authRoutes(auth, publishableKey));
  app.route('/v1', apiRoutes(api));
  if (config.devMailbox) app.route('/dev', mailboxRoutes(api.db, config.trustProxy));
  if (api.payments.provider.name === 'sandbox') app.route('/sandbox', sandboxCheckoutRoutes(api.payments));

  app.route('/media', mediaFileRoutes(api.media));
  app.route('/media', exampleMediaRoutes(exampleMediaDir(process.cwd(), config.appDir)));
  app.route('/media', coverRoutes(api.db));

  app.notFound((c) => {
    if (c.req.path.startsWith('/v1/') || c.req.path === '/v1') return c.json({ detail: `No route ${c.req.method} ${c.req.path}` }, 404);
    if (c.req.path.startsWith('/auth/'))
      return c.json(
        {
          code: 'not_found',
          error_code: 'not_found',
          msg: `No route ${c.req.method} ${c.req.path}`,
          message: `No route ${c.req.method} ${c.req.path}`,
        },
        404,
      );
    return c.text('Not found', 404);
  });

  if (serveApp) {
    const serve = siteRenderer({ config, publishableKey, app, catalogue });
    // The first visitor after a start gets a page as fast as the next one (siteRenderer's warm).
    void serve.warm();
    app.on(['GET', 'HEAD'], '*', (c) => {
      if (/^\/(v1|auth|dev|media|sandbox)(\/|$)/.test(c.req.path)) return c.notFound();
      return serve(c);
    });
  }

  if (catalogue && !config.logRequests) {
    // Cached catalogue reads skip the router and the middleware chain (docs/deploy.md,
    // "Throughput"); with LOG_REQUESTS every request goes through the logger instead.
    const fastLane = catalogueFastLane(catalogue, config);
    const routed = app.fetch;
    app.fetch = (request, env, executionCtx) => fastLane(request) ?? routed(request, env, executionCtx);
  }

  return app;
}
