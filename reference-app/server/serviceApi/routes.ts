import { z } from '@hono/zod-openapi';
import type { ServiceEndpoint } from '@limelight/widgets/api';
import type { MaybeSignedInEnv, SignedInEnv } from '../api/authenticate';
import type { ApiDeps } from '../api/deps';
import { badRequest, invalidFields, notFound } from '../errors';
import { createApiApp, fieldErrorsOf } from '../api/openapi';
import { answerError, answerJobCreate } from '../jobs/routes';
import { serviceOpenApiDocument } from './document';

// /v1/services/{service_id}/…: the per-service OpenAPI document (docs/sdk.md) and the run
// operations it describes. Thin: load, check visibility, answer. Mounted in api/mounts.ts.

/** The service as the caller may see it: public, or private and the caller's own. */
async function visibleService(deps: ApiDeps, serviceId: string, userId: string | undefined) {
  const row = await deps.db
    .selectFrom('models')
    .select(['id', 'display_name', 'model_desc', 'is_public', 'created_by', 'endpoints'])
    .where('id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
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
export function serviceDocumentRoutes(deps: ApiDeps) {
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
export function serviceRunRoutes(deps: ApiDeps) {
  const app = createApiApp<SignedInEnv>();
  app.post('/*', async (c) => {
    const match = pathAfterServices(c.req.path).match(/^(.+?)\/run(\/.+)$/);
    if (!match) throw notFound(`No route POST ${c.req.path}`);
    const [, serviceId, endpoint] = match as unknown as [string, string, string];
    const raw: unknown = await c.req.json().catch(() => undefined);
    if (raw === undefined) throw badRequest('Request body is not valid JSON: send {"input": {…}}');
    const parsed = RunBodySchema.safeParse(raw);
    if (!parsed.success) throw invalidFields(fieldErrorsOf(parsed.error));
    return answerJobCreate(c, deps, c.var.caller.userId, { service_id: serviceId, endpoint, ...parsed.data }).catch((error) =>
      answerError(c, error),
    );
  });
  return app;
}
