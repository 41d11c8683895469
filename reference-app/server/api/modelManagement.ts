import { createRoute, z } from '@hono/zod-openapi';
import type { Selectable } from 'kysely';
import type { ModelsTable } from '../db/types';
import { authenticate, optionalCaller, requireCaller } from './caller';
import type { ApiDeps } from './deps';
import { invalid, notFound } from './errors';
import { bearer, errors, json, type ApiApp } from './openapi';
import {
  HostingInformationSchema,
  HostingQuerySchema,
  ModelCategorySchema,
  ModelDescriptorSchema,
  ModelPricingRowSchema,
  PricingServerSchema,
} from './schemas';

// /v1/model_management/: the catalogue (spec §7). Descriptors are public to everyone plus the
// caller's own private services; the public list is cached for a few seconds because every
// visitor's search bar loads it.

type ModelDescriptor = z.output<typeof ModelDescriptorSchema>;
const PUBLIC_CACHE_MS = 5_000;
const tags = ['model_management'];

/** Stored image paths are site-relative; embeds on other sites need absolute URLs. */
export const absoluteUrl = (publicUrl: string, value: string | null) =>
  value && value.startsWith('/') && !value.startsWith('//') ? `${publicUrl}${value}` : value;

function toDescriptor(row: Selectable<ModelsTable>, publicUrl: string): ModelDescriptor {
  return {
    id: row.id,
    display_name: row.display_name,
    model_desc: row.model_desc,
    display_img_url: absoluteUrl(publicUrl, row.display_img_url),
    used_models: row.used_models,
    model_category: row.model_category as ModelDescriptor['model_category'],
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    n_usages: row.n_usages,
    sort_idx_featured: row.sort_idx_featured,
    provider: row.provider,
    owner_name: row.owner_name,
    is_public: row.is_public,
    endpoints: row.endpoints as ModelDescriptor['endpoints'],
  };
}

export function registerModelManagement(app: ApiApp, deps: ApiDeps) {
  const { db, config } = deps;
  // The list and its JSON text: most callers are anonymous and get the text as it is.
  let publicCache: { at: number; json: string } | undefined;

  async function publicModelsJson(): Promise<string> {
    if (publicCache && Date.now() - publicCache.at < PUBLIC_CACHE_MS) return publicCache.json;
    const rows = await db
      .selectFrom('models')
      .selectAll()
      .where('is_public', '=', true)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    publicCache = { at: Date.now(), json: JSON.stringify(rows.map((r) => toDescriptor(r, config.publicUrl))) };
    return publicCache.json;
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_management/model_categories',
      tags,
      summary: 'Categories of the catalogue with their input and output domains',
      responses: { 200: json(z.array(ModelCategorySchema), 'Categories') },
    }),
    async (c) => {
      const rows = await db.selectFrom('model_categories').selectAll().orderBy('sort_idx').execute();
      return c.json(
        rows.map(({ id, title, input_domain, output_domain }) => ({ id, title, input_domain, output_domain })),
        200,
      );
    },
  );

  // Registered for the document only: the handler answers with cached JSON text.
  app.openAPIRegistry.registerPath(
    createRoute({
      method: 'get',
      path: '/model_management/model_descriptors',
      tags,
      summary: "Public model services, plus the caller's private ones when a token is sent",
      security: [{}, ...bearer],
      responses: { 200: json(z.array(ModelDescriptorSchema), 'Model descriptors') },
    }),
  );
  app.get('/model_management/model_descriptors', async (c) => {
    const [caller, models] = await Promise.all([optionalCaller(c, deps), publicModelsJson()]);
    const headers = { 'Content-Type': 'application/json', Vary: 'Authorization' };
    if (!caller) return c.body(models, 200, headers);
    const own = await db
      .selectFrom('models')
      .selectAll()
      .where('created_by', '=', caller.userId)
      .where('is_public', '=', false)
      .orderBy('created_at', 'desc')
      .execute();
    if (!own.length) return c.body(models, 200, headers);
    // The caller's private services first, then the public list (spliced as text).
    const ownJson = JSON.stringify(own.map((r) => toDescriptor(r, config.publicUrl))).slice(1, -1);
    return c.body(models === '[]' ? `[${ownJson}]` : `[${ownJson},${models.slice(1)}`, 200, headers);
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_management/model_hosting_information',
      tags,
      summary: 'Hosting state of a service, by hosted_model_id or model_id (hosted_model_id wins)',
      security: bearer,
      middleware: [authenticate(deps)] as const,
      request: { query: HostingQuerySchema },
      responses: { 200: json(HostingInformationSchema, 'Hosting information'), ...errors(401, 404, 422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const query = c.req.valid('query');
      if (!query.hosted_model_id && !query.model_id) throw invalid('hosted_model_id or model_id: give one of them');
      const key = query.hosted_model_id ? 'model_hosting.hosted_model_id' : 'model_hosting.model_id';
      const value = (query.hosted_model_id ?? query.model_id)!;
      const row = await db
        .selectFrom('models')
        .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
        .select([
          'models.id as model_id',
          'models.provider',
          'models.is_public',
          'models.created_by',
          'model_hosting.hosted_model_id',
          'model_hosting.status',
          'model_hosting.gpu',
          'model_hosting.min_instances',
          'model_hosting.max_instances',
          'model_hosting.updated_at',
        ])
        .where(query.hosted_model_id ? 'model_hosting.hosted_model_id' : 'models.id', '=', value)
        .executeTakeFirst();
      const label = key === 'model_hosting.hosted_model_id' ? `hosted_model_id ${value}` : `model_id ${value}`;
      // Someone else's private service answers like a missing one.
      if (!row || (!row.is_public && row.created_by !== caller.userId)) throw notFound(`No model service with ${label}`);
      if (!row.hosted_model_id) throw notFound(`Model ${row.model_id} is not hosted on ${config.brandName} (provider ${row.provider})`);
      return c.json(
        {
          hosted_model_id: row.hosted_model_id,
          model_id: row.model_id,
          status: row.status as z.output<typeof HostingInformationSchema>['status'],
          gpu: row.gpu!,
          min_instances: row.min_instances!,
          max_instances: row.max_instances!,
          endpoint_url: `${config.publicUrl}/v1/run/${encodeURIComponent(row.hosted_model_id)}`,
          updated_at: row.updated_at!.toISOString(),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_management/pricing_servers',
      tags,
      summary: 'GPU servers with per-second prices (clients keep the runpod and replicate ones)',
      responses: { 200: json(z.array(PricingServerSchema), 'Pricing servers') },
    }),
    async (c) => {
      const rows = await db.selectFrom('pricing_servers').selectAll().orderBy('customer_price_per_s_usd').orderBy('id').execute();
      return c.json(rows, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/model_management/model_pricing_table',
      tags,
      summary: 'Price of each public service, per request or per second of GPU time',
      responses: { 200: json(z.array(ModelPricingRowSchema), 'Model pricing table') },
    }),
    async (c) => {
      const rows = await db
        .selectFrom('model_pricing')
        .innerJoin('models', 'models.id', 'model_pricing.model_id')
        .select(['model_pricing.model_id', 'models.display_name', 'model_pricing.unit', 'model_pricing.price_usd'])
        .where('models.is_public', '=', true)
        .orderBy('models.display_name')
        .execute();
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
}
