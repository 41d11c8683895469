import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import { body, errors, json, type ApiApp } from '../api/openapi';
import { updateService, type ServicesDeps } from './publishedServices';
import { ServiceIdParamSchema } from './schemas';
import { listVersions, rollback, type RegistryStore } from './versions';

// /v1/model_management/services/{id}/versions and …/rollback (docs/publishing.md, "Versions and
// rollback"): the owner's container service's versions, newest first, and the redeploy of one.

const tags = ['publishing'];

const VersionSchema = z
  .object({
    id: z.string(),
    image: z.string(),
    digest: z.string().nullable().openapi({ description: 'sha256:… when the image is named by digest; null for a tag' }),
    kind: z.enum(['deploy', 'rollback']),
    deployed_at: z.string(),
    deployed_by: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
    outcome: z.enum(['pending', 'in_progress', 'succeeded', 'failed', 'superseded']).openapi({
      description: "The rollout's outcome; superseded: a newer version was saved before it ended",
    }),
    outcome_message: z.string().nullable(),
    current: z.boolean().openapi({ description: 'The version serving now: the newest whose rollout succeeded' }),
  })
  .openapi('ServiceVersion');

const VersionListSchema = z.object({ versions: z.array(VersionSchema), next_cursor: z.string().nullable() }).openapi('ServiceVersionList');

const VersionListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

const RollbackSchema = z
  .object({
    digest: z.string().max(80).optional().openapi({
      description:
        'The version to redeploy: its digest, or the first 4 or more hex digits of it (default: the version that served before the current one)',
    }),
  })
  .strict()
  .openapi('ServiceRollback');

export function versionRoutes(app: ApiApp<SignedInEnv>, services: ServicesDeps & { registry?: RegistryStore }) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/services/{id}/versions',
      tags,
      summary: 'The versions of one of the caller’s container services, newest first, the serving one marked',
      request: { params: ServiceIdParamSchema, query: VersionListQuerySchema },
      responses: { 200: json(VersionListSchema, 'A page of versions'), ...errors(403, 404, 422) },
    }),
    async (c) => {
      const { limit, cursor } = c.req.valid('query');
      const page = await listVersions(services, c.req.valid('param').id, c.var.caller.userId, { limit, ...(cursor ? { cursor } : {}) });
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/services/{id}/rollback',
      tags,
      summary: 'Redeploys an earlier version of the service (a rolling update, as a push); follow its rollout in model_hosting_information',
      request: { params: ServiceIdParamSchema, ...body(RollbackSchema) },
      responses: { 200: json(VersionSchema, 'The version recorded for the rollback'), ...errors(402, 403, 404, 422) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const userId = c.var.caller.userId;
      const { digest } = c.req.valid('json');
      const version = await rollback(services, id, userId, digest, (runtime) =>
        updateService(services, id, userId, { runtime }, 'rollback'),
      );
      return c.json(version, 200);
    },
  );
}
