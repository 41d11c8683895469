import { createRoute } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { ApiDeps } from '../api/deps';
import { createApiApp, errors, json } from '../api/openapi';
import { HostingInformationSchema, HostingQuerySchema } from './schemas';
import { hostingInformation } from './information';

// /v1/model_management/model_hosting_information: a container service's deployment as the
// platform stored it (status, instances, cold start; to its owner also the log tail and the
// newest job's times). Signed in, API keys allowed (api/mounts.ts); the schemas stay with the
// catalogue's, whose tag and document they share.

const tags = ['model_management'];

export function hostingRoutes({ db, config }: ApiDeps) {
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

  return app;
}
