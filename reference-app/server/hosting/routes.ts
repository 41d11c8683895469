import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import { createApiApp, errors, json } from '../api/openapi';
import { HostingInformationSchema, HostingQuerySchema, RolloutProgressSchema, RolloutQuerySchema } from './schemas';
import { hostingInformation, rolloutProgress } from './information';

// /v1/model_management/model_hosting_information: a container service's deployment as the
// platform stored it (status, instances, cold start; to its owner also the log tail and the
// newest job's times), and /v1/model_management/services/{id}/rollout: to its owner only, the
// rollout and the log lines written since a cursor, which `limelight deploy` prints as they come.
// Signed in, API keys allowed (v1/mounts.ts); the schemas stay with the catalogue's, whose tag
// and document they share.

const tags = ['model_management'];

export function hostingRoutes({ db, config }: { db: Db; config: CoreConfig }) {
  const app = createApiApp<SignedInEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_hosting_information',
      tags,
      summary: 'Hosting state of a service, by hosted_model_id or model_id (hosted_model_id wins)',
      request: { query: HostingQuerySchema },
      responses: { 200: json(HostingInformationSchema, 'Hosting information'), ...errors(404, 422) },
    }),
    async (c) => c.json(await hostingInformation(db, config, c.var.caller.userId, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/services/{id}/rollout',
      tags,
      summary:
        "Owner only: the service's rollout and its log lines since a cursor (pull, start, the app's output, health), what `limelight deploy` prints while it waits",
      request: { params: z.object({ id: z.string().min(1).max(200) }), query: RolloutQuerySchema },
      responses: { 200: json(RolloutProgressSchema, 'Rollout progress'), ...errors(404, 422) },
    }),
    async (c) => c.json(await rolloutProgress(db, config, c.var.caller.userId, c.req.valid('param').id, c.req.valid('query')), 200),
  );

  return app;
}
