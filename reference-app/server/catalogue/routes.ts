import { createRoute, z } from '@hono/zod-openapi';
import type { MaybeSignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import type { RuntimeRegistry } from '../hosting/runtimeRegistry';
import { createApiApp, json } from '../api/openapi';
import { descriptorList } from './descriptors';
import { selectCategories, selectServicePricing, selectPricingServers } from './queries';
import { ModelCategorySchema, ModelDescriptorSchema, ModelPricingRowSchema, PricingServerSchema } from './schemas';

// /v1/model_management/: the catalogue. Two apps because their access differs (v1/mounts.ts):
// public lists, and descriptors that include the caller's private services. A service's hosting
// state (model_hosting_information) is hosting's (hosting/routes.ts).

const tags = ['model_management'];

export function catalogueRoutes({ db }: { db: Db }) {
  const app = createApiApp();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_categories',
      tags,
      summary: 'Categories of the catalogue with their input and output domains',
      responses: { 200: json(z.array(ModelCategorySchema), 'Categories') },
    }),
    async (c) => {
      const rows = await selectCategories(db);
      return c.json(
        rows.map(({ id, title, input_domain, output_domain }) => ({ id, title, input_domain, output_domain })),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/pricing_servers',
      tags,
      summary:
        'GPU offers with per-second prices, one per GPU, VRAM, GPU count and provider (the cheapest when several differ only by price); clients keep the runpod and replicate ones',
      responses: { 200: json(z.array(PricingServerSchema), 'Pricing servers') },
    }),
    async (c) => c.json(await selectPricingServers(db), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_pricing_table',
      tags,
      summary: 'Price of each public service, per request or per second of GPU time',
      responses: { 200: json(z.array(ModelPricingRowSchema), 'Model pricing table') },
    }),
    async (c) => {
      const rows = await selectServicePricing(db);
      return c.json(
        rows.map((r) => ({
          model_id: r.model_id,
          display_name: r.display_name ?? r.model_id,
          unit: r.unit as 'request' | 'second',
          price_usd: r.price_usd,
        })),
        200,
      );
    },
  );

  return app;
}

export function descriptorRoutes({ db, config, services }: { db: Db; config: CoreConfig; services: { runtimes: RuntimeRegistry } }) {
  const app = createApiApp<MaybeSignedInEnv>();
  const descriptorsJson = descriptorList(db, config.publicUrl, (service) => services.runtimes.runsOn(service));

  // Registered for the document only: the handler answers with JSON text.
  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/model_descriptors',
      tags,
      summary: "Public model services, plus the caller's private ones when a token is sent",
      responses: { 200: json(z.array(ModelDescriptorSchema), 'Model descriptors') },
    }),
  );
  app.get('/model_descriptors', async (c) =>
    c.body(await descriptorsJson(c.var.caller?.userId), 200, { 'Content-Type': 'application/json', Vary: 'Authorization' }),
  );

  return app;
}
