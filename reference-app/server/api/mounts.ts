import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { catalogueRoutes, descriptorRoutes, hostingRoutes } from '../catalogue/routes';
import { paymentPublicRoutes, paymentRoutes } from '../payments/routes';
import { profileRoutes } from '../profile/routes';
import { serviceRoutes } from '../services/routes';
import { supportPublicRoutes, supportRoutes } from '../support/routes';
import { mountFeature } from './access';
import type { MaybeSignedInEnv } from './authenticate';
import type { ApiDeps } from './deps';
import { ApiHttpError } from './errors';
import { createApiApp, describeApi } from './openapi';

// The platform API, mounted at /v1, with its OpenAPI description at /v1/openapi.json.
//
// Adding a feature: give it a folder (server/<feature>/) whose routes.ts builds an app with
// `createApiApp<SignedInEnv>()` (handlers read `c.var.caller`) or `createApiApp()` for public
// routes, then add one line to the list below:
//
//   mountFeature(v1, deps, '/jobs', jobRoutes(deps), { auth: 'signed-in' });
//
// The access declared here is the only place that decides who may call the feature's routes.

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SUPPORT_BODY_LIMIT = 16 * 1024 * 1024;
const IMAGE_BODY_LIMIT = 6 * 1024 * 1024;

export function apiRoutes(deps: ApiDeps) {
  const v1 = createApiApp<MaybeSignedInEnv>();

  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      // The rest of the body is never read: the connection cannot be reused.
      onError: (c) => c.json({ detail: `Request body too large: the limit is ${maxSize} bytes` }, 413, { Connection: 'close' }),
    });
  const supportLimit = limit(SUPPORT_BODY_LIMIT);
  const defaultLimit = limit(DEFAULT_BODY_LIMIT);
  const imageLimit = limit(IMAGE_BODY_LIMIT);
  v1.use('*', (c, next) => {
    if (c.req.path.endsWith('/support/support')) return supportLimit(c, next);
    if (/\/model_management\/services\/[^/]+\/image$/.test(c.req.path)) return imageLimit(c, next);
    return defaultLimit(c, next);
  });

  mountFeature(v1, deps, '/model_management', catalogueRoutes(deps), { auth: 'public' });
  mountFeature(v1, deps, '/model_management', descriptorRoutes(deps), { auth: 'optional' });
  mountFeature(v1, deps, '/model_management', hostingRoutes(deps), { auth: 'signed-in' });
  mountFeature(v1, deps, '/model_management', serviceRoutes(deps, deps.services), { auth: 'signed-in' });
  mountFeature(v1, deps, '/profile', profileRoutes(deps), { auth: 'signed-in' });
  mountFeature(v1, deps, '/payment', paymentPublicRoutes(deps), { auth: 'public' });
  mountFeature(v1, deps, '/payment', paymentRoutes(deps), { auth: 'signed-in' });
  mountFeature(v1, deps, '/support', supportPublicRoutes(deps), { auth: 'public' });
  mountFeature(v1, deps, '/support', supportRoutes(deps), { auth: 'signed-in' });

  describeApi(v1, deps.config);

  v1.notFound((c) => c.json({ detail: `No route ${c.req.method} ${c.req.path}` }, 404));

  v1.onError((error, c) => {
    if (error instanceof ApiHttpError)
      return c.json(error.errors ? { detail: error.detail, errors: error.errors } : { detail: error.detail }, error.status);
    if (error instanceof HTTPException && error.status < 500) {
      const detail = /json/i.test(error.message) ? 'Request body is not valid JSON' : error.message || 'Bad request';
      return c.json({ detail }, error.status);
    }
    console.error(`api ${c.req.method} ${c.req.path} failed:`, error);
    return c.json({ detail: 'Internal Server Error' }, 500);
  });

  return v1;
}
