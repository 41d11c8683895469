import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ApiDeps } from './deps';
import { ApiHttpError } from './errors';
import { registerModelManagement } from './modelManagement';
import { createApiApp } from './openapi';
import { registerPayment } from './payment';
import { registerProfile } from './profile';
import { registerSupport } from './support';

// The platform API, mounted at /v1, with its OpenAPI description at /v1/openapi.json.

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SUPPORT_BODY_LIMIT = 16 * 1024 * 1024;

export function apiRoutes(deps: ApiDeps) {
  const app = createApiApp();

  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      // The rest of the body is never read: the connection cannot be reused.
      onError: (c) => c.json({ detail: `Request body too large: the limit is ${maxSize} bytes` }, 413, { Connection: 'close' }),
    });
  const supportLimit = limit(SUPPORT_BODY_LIMIT);
  const defaultLimit = limit(DEFAULT_BODY_LIMIT);
  app.use('*', (c, next) => (c.req.path.endsWith('/support/support') ? supportLimit(c, next) : defaultLimit(c, next)));

  registerModelManagement(app, deps);
  registerProfile(app, deps);
  registerPayment(app, deps);
  registerSupport(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from the auth API (/auth/v1), or an API key (lime_…)',
  });
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: `${deps.config.brandName} platform API`,
      version: '1',
      description: 'Model catalogue, profile, payment and support calls. Errors are JSON objects {"detail": "..."}.',
    },
    servers: [{ url: `${deps.config.publicUrl}/v1` }],
  });

  app.notFound((c) => c.json({ detail: `No route ${c.req.method} ${c.req.path}` }, 404));

  app.onError((error, c) => {
    if (error instanceof ApiHttpError) return c.json({ detail: error.detail }, error.status);
    if (error instanceof HTTPException && error.status < 500) {
      const detail = /json/i.test(error.message) ? 'Request body is not valid JSON' : error.message || 'Bad request';
      return c.json({ detail }, error.status);
    }
    console.error(`api ${c.req.method} ${c.req.path} failed:`, error);
    return c.json({ detail: 'Internal Server Error' }, 500);
  });

  return app;
}
