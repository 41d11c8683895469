import { bodyLimit } from '../http/bodyLimit';
import { HTTPException } from 'hono/http-exception';
import { catalogueRoutes, descriptorRoutes } from '../catalogue/routes';
import { hostingRoutes } from '../hosting/routes';
import { priceBasisRoutes } from '../catalogue/priceBasis';
import { paymentPublicRoutes, paymentRoutes } from '../payments/routes';
import { fileRoutes, jobRoutes } from '../jobs/routes';
import { profileRoutes } from '../profile/routes';
import { whoamiRoutes } from '../profile/whoami';
import { secretRoutes } from '../secrets/routes';
import { serviceRoutes } from '../publishing/routes';
import { serviceDocumentRoutes, serviceRunRoutes } from '../serviceApi/routes';
import { registryImageRoutes } from '../registry/imageRoutes';
import { registryInfoRoutes, registryTokenRoutes } from '../registry/routes';
import { newsletterOwnerRoutes, supportPublicRoutes, supportRoutes } from '../support/routes';
import type { Context, Env } from 'hono';
import { mountFeature, type Access } from '../api/access';
import type { MaybeSignedInEnv } from '../api/authenticate';
import type { ApiDeps } from './deps';
import { answerDomainError } from '../api/errors';
import { createApiApp, describeApi, type ApiApp } from '../api/openapi';
import { sessionStateLookup } from '../api/sessionState';
import { logRequestFailure } from '../http/errorLog';
import { callerOf } from '../profile/callers';

// The platform API, mounted at /v1, with its OpenAPI description at /v1/openapi.json.
//
// Adding a feature: give it a folder (server/<feature>/) whose routes.ts builds an app with
// `createApiApp<SignedInEnv>()` (handlers read `c.var.caller`) or `createApiApp()` for public
// routes, then add one line to the list below:
//
//   mount('/jobs', jobRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
//
// The access declared here is the only place that decides who may call the feature's routes:
// anyone, optionally signed in, or signed in (then also whether API keys may); access.ts adds
// the MFA step-up for routes that change data and checks that a token's session still exists.

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
    // POST /v1/files enforces its own (larger) upload limit.
    if (c.req.path.endsWith('/v1/files')) return next();
    if (/\/model_management\/services\/[^/]+\/image$/.test(c.req.path)) return imageLimit(c, next);
    return c.req.path.endsWith('/support/support') ? supportLimit(c, next) : defaultLimit(c, next);
  });

  const accessDeps = { ...deps, sessionState: sessionStateLookup(deps.db), callerOf: (c: Context) => callerOf(c, deps) };
  const mount = <E extends Env>(prefix: string, feature: ApiApp<E>, access: Access) =>
    mountFeature(v1, accessDeps, prefix, feature, access);

  mount('/model_management', catalogueRoutes(deps), { auth: 'public' });
  mount('/model_management', descriptorRoutes(deps), { auth: 'optional' });
  mount('/model_management', priceBasisRoutes(deps), { auth: 'optional' });
  mount('/model_management', hostingRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  // Publishing: sessions and API keys (`limelight deploy` signs in with a key), each on the
  // caller's own services only (the routes check the owner); keys have no scopes to narrow this.
  mount('/model_management', serviceRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  // A service's secrets, by name (`limelight secrets`): the same access as publishing, owner only.
  mount('/model_management', secretRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  mount('/profile', profileRoutes(deps), { auth: 'signed-in', apiKeys: 'refused' });
  // Whose credential this is (`limelight login`, `whoami`): keys allowed, it changes nothing.
  mount('/whoami', whoamiRoutes(), { auth: 'signed-in', apiKeys: 'allowed' });
  mount('/payment', paymentPublicRoutes(deps), { auth: 'public' });
  mount('/payment', paymentRoutes(deps), { auth: 'signed-in', apiKeys: 'refused' });
  mount('/support', supportPublicRoutes(deps), { auth: 'public' });
  mount('/support', newsletterOwnerRoutes(deps), { auth: 'optional' });
  mount('/support', supportRoutes(deps), { auth: 'signed-in', apiKeys: 'refused' });
  mount('/jobs', jobRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  mount('/files', fileRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  // One service's OpenAPI document (private ones for their owner) and the run operations it describes.
  mount('/services', serviceDocumentRoutes(deps), { auth: 'optional' });
  mount('/services', serviceRunRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  // The platform's registry: its token endpoint reads Basic credentials itself (registry/routes.ts).
  mount('', registryTokenRoutes(deps), { auth: 'public' });
  mount('', registryInfoRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });
  // The caller's own images there: listed and deleted (`limelight images`, Account → Hosting).
  mount('', registryImageRoutes(deps), { auth: 'signed-in', apiKeys: 'allowed' });

  describeApi(v1, deps.config);

  v1.notFound((c) => c.json({ detail: `No route ${c.req.method} ${c.req.path}` }, 404));

  v1.onError((error, c) => {
    const answer = answerDomainError(c, error);
    if (answer) return answer;
    if (error instanceof HTTPException && error.status < 500) {
      const detail = /json/i.test(error.message) ? 'Request body is not valid JSON' : error.message || 'Bad request';
      return c.json({ detail }, error.status);
    }
    logRequestFailure('api', c, error);
    return c.json({ detail: 'Internal Server Error' }, 500);
  });

  return v1;
}
