import { createRoute } from '@hono/zod-openapi';
import type { MaybeSignedInEnv } from '../api/authenticate';
import type { JobService } from '../jobs/service';
import { createApiApp, errors, json } from '../api/openapi';
import { EstimateQuerySchema, EstimateSchema } from '../jobs/schemas';

// What a run costs, for everyone (docs/jobs.md, "Cost before running"): the price per second of the service's GPU and
// the measured run times of its endpoint (every caller's, newest first), the same figures the job
// API's /v1/jobs/estimate gives a signed-in caller. Anonymous visitors see public services only.

export function priceBasisRoutes({ jobs }: { jobs: JobService }) {
  const app = createApiApp<MaybeSignedInEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/price_basis',
      tags: ['model_management'],
      summary: "Price per second of the service's GPU and the endpoint's measured run times (no token needed for public services)",
      request: { query: EstimateQuerySchema },
      responses: { 200: json(EstimateSchema, 'Price basis'), ...errors(404, 409, 422) },
    }),
    async (c) => {
      const query = c.req.valid('query');
      // No caller: an id no user has, so only public services resolve.
      return c.json(await jobs.estimate(c.var.caller?.userId ?? '', query.service_id, query.endpoint), 200);
    },
  );
  return app;
}
