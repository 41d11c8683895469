import { z } from '@hono/zod-openapi';
import type { ServiceEndpoint } from '@limelight/widgets/api';
import type { MaybeSignedInEnv, SignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import type { JobService } from '../jobs/service';
import { badRequest, invalidFields, notFound } from '../errors';
import { createApiApp, fieldErrorsOf } from '../api/openapi';
import { answerJobCreate } from '../jobs/routes';
import { serviceOpenApiDocument } from './document';
import { selectServiceForDocument } from './queries';

// /v1/services/{service_id}/…: the per-service OpenAPI document (docs/sdk.md) and the run
// operations it describes. Thin: load, check visibility, answer. Mounted in v1/mounts.ts.

/** The service as the caller may see it: public, or private and the caller's own. */
/** What a service's document and run routes read. */
export interface ServiceApiDeps {
  db: Db;
  config: CoreConfig;
  jobs: JobService;
}

async function visibleService(deps: Pick<ServiceApiDeps, 'db'>, serviceId: string, userId: string | undefined) {
  const row = await selectServiceForDocument(deps.db, serviceId);
  // A private service is 404 to everyone but its owner, exactly like a missing one.
  if (!row || (!row.is_public && (!userId || row.created_by !== userId))) {
    throw notFound(
      `Service ${serviceId} not found${userId ? '' : ' (a private service needs its owner’s API key or access token: Authorization: Bearer …)'}`,
    );
  }
  return { ...row, endpoints: (row.endpoints ?? []) as ServiceEndpoint[] };
}

/** `/v1/services/owner%2Fname/openapi.json` -> `owner/name/openapi.json` (decoded). */
const pathAfterServices = (path: string) => decodeURIComponent(path.slice(path.indexOf('/services/') + '/services/'.length));

/** GET /{service_id}/openapi.json: anyone for public services, the owner for private ones. */
export function serviceDocumentRoutes(deps: ServiceApiDeps) {
  const app = createApiApp<MaybeSignedInEnv>();
  // Service ids may hold a slash (owner/name), so the id is everything before the suffix.
  app.get('/*', async (c) => {
    const serviceId = pathAfterServices(c.req.path).match(/^(.+)\/openapi\.json$/)?.[1];
    if (!serviceId) throw notFound(`No route GET ${c.req.path}`);
    const service = await visibleService(deps, serviceId, c.var.caller?.userId);
    const document = serviceOpenApiDocument(service, { publicUrl: deps.config.publicUrl, brandName: deps.config.brandName });
    // Private documents must not sit in a shared cache.
    c.header('Cache-Control', service.is_public ? 'public, max-age=60' : 'private, no-store');
    return c.json(document);
  });
  return app;
}

const RunBodySchema = z.object({ input: z.record(z.string(), z.unknown()), webhook: z.string().max(2000).optional() }).strict();

/** POST /{service_id}/run/<endpoint path>: POST /v1/jobs with the service and endpoint in the path. */
export function serviceRunRoutes(deps: ServiceApiDeps) {
  const app = createApiApp<SignedInEnv>();
  app.post('/*', async (c) => {
    const match = pathAfterServices(c.req.path).match(/^(.+?)\/run(\/.+)$/);
    if (!match) throw notFound(`No route POST ${c.req.path}`);
    const [, serviceId, endpoint] = match as unknown as [string, string, string];
    const raw: unknown = await c.req.json().catch(() => undefined);
    if (raw === undefined) throw badRequest('Request body is not valid JSON: send {"input": {…}}');
    const parsed = RunBodySchema.safeParse(raw);
    if (!parsed.success) throw invalidFields(fieldErrorsOf(parsed.error));
    // The job service throws DomainErrors; the API's error handler answers them.
    return answerJobCreate(c, deps, c.var.caller.userId, { service_id: serviceId, endpoint, ...parsed.data });
  });
  return app;
}
