import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import type { RuntimesConfig } from '../hosting/config';
import type { PlatformRegistry } from '../registry/platformRegistry';
import type { ServiceRoutesOptions } from './deps';
import { IdempotencyKeyHeaders, idempotentCreate } from '../api/idempotency';
import { invalid, tooLarge, unsupportedType } from '../errors';
import { body, createApiApp, errors, json } from '../api/openapi';
import type { UrlPolicy } from '../runtimes/http/urlPolicy';
import { cardImage, IMAGE_TYPES, ImageError, MAX_IMAGE_BYTES } from './cardImage';
import { fetchOpenApiDocument } from './importSource';
import { importOpenApi, OpenApiImportError } from './openapiImport';
import {
  HealthCheckSchema,
  ImportOpenApiSchema,
  ManagedServiceSchema,
  OpenApiImportSchema,
  ServiceCreateSchema,
  ServiceIdParamSchema,
  ServicePatchSchema,
} from './schemas';
import {
  createService,
  deleteService,
  getService,
  listOwnServices,
  ownedService,
  recordHealth,
  setServiceImage,
  updateService,
} from './publishedServices';
import { versionRoutes } from './versionRoutes';

// /v1/model_management/services: publishing (docs/publishing.md). Mounted signed-in with API keys
// allowed (`limelight deploy` signs in with one, v1/mounts.ts); every route acts on the caller's
// own services only. What the routes need besides the database comes in `deps.services`.

const tags = ['publishing'];

const idParam = { params: ServiceIdParamSchema };

/**
 * The endpoints of a pasted document, of the one at `source.url`, or else of the one at
 * `fallback` (a saved service's own /openapi.json). URLs go through the service URL policy.
 */
async function readEndpoints(
  source: { url?: string; document?: Record<string, unknown> },
  fallback: URL | undefined,
  urlPolicy: UrlPolicy,
) {
  let document = source.document;
  if (!document) {
    const url = source.url ? new URL(source.url) : fallback;
    if (!url) throw invalid('url: give the document’s URL or the document itself (the service has no base URL to read /openapi.json from)');
    document = (await fetchOpenApiDocument(url, urlPolicy)) as Record<string, unknown>;
  }
  try {
    return await importOpenApi(document);
  } catch (error) {
    if (error instanceof OpenApiImportError) throw invalid(`document: ${error.message}`);
    throw error;
  }
}
const serviceResponse = (status: string) => json(ManagedServiceSchema, status);

/** What the publishing routes read: the server's settings and hosting's (the registries images come from). */
export interface ServiceRouteDeps {
  db: Db;
  box: SecretBox;
  config: CoreConfig & { runtimes: RuntimesConfig };
  registry?: PlatformRegistry;
  services: ServiceRoutesOptions;
}

export function serviceRoutes({ db, box, config, registry, services: { runtimes, urlPolicy, storeImage } }: ServiceRouteDeps) {
  const app = createApiApp<SignedInEnv>();
  const services = {
    db,
    box,
    publicUrl: config.publicUrl,
    runtimes,
    urlPolicy,
    imageRegistries: config.runtimes.imageRegistries,
    platformRegistryHost: config.runtimes.registry?.host,
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/services',
      tags,
      summary: 'The caller’s own services, newest first',
      responses: { 200: json(z.array(ManagedServiceSchema), 'Services') },
    }),
    async (c) => c.json(await listOwnServices(services, c.var.caller.userId), 200),
  );

  app.use('/services', idempotentCreate(db));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/services',
      tags,
      summary: 'Creates a service (private by default; the plan limits private services)',
      request: { ...body(ServiceCreateSchema), headers: IdempotencyKeyHeaders },
      responses: { 201: serviceResponse('The new service'), ...errors(402, 422) },
    }),
    async (c) => c.json(await createService(services, c.var.caller.userId, c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/services/{id}',
      tags,
      summary: 'One of the caller’s services, as its editor shows it',
      request: idParam,
      responses: { 200: serviceResponse('The service'), ...errors(403, 404) },
    }),
    async (c) => c.json(await getService(services, c.req.valid('param').id, c.var.caller.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/services/{id}',
      tags,
      summary: 'Changes a service: any subset of its fields; header secrets are kept unless replaced',
      request: { ...idParam, ...body(ServicePatchSchema) },
      responses: { 200: serviceResponse('The changed service'), ...errors(402, 403, 404, 422) },
    }),
    async (c) => c.json(await updateService(services, c.req.valid('param').id, c.var.caller.userId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/services/{id}',
      tags,
      summary: 'Deletes a service: its page and runs stop; job history and ledger rows stay',
      request: idParam,
      responses: { 200: json(z.object({ id: z.string() }), 'Deleted'), ...errors(403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await deleteService(services, id, c.var.caller.userId);
      return c.json({ id }, 200);
    },
  );

  const importResponses = { 200: json(OpenApiImportSchema, 'Endpoints and what was not imported') };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/import_openapi',
      tags,
      summary: 'Reads endpoints from an OpenAPI 3 document (url or pasted document) before the service exists; saves nothing',
      request: body(ImportOpenApiSchema),
      responses: { ...importResponses, ...errors(422) },
    }),
    async (c) => c.json(await readEndpoints(c.req.valid('json'), undefined, urlPolicy), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/services/{id}/import_openapi',
      tags,
      summary: 'Reads endpoints from an OpenAPI 3 document (url, pasted document, or the service’s /openapi.json); saves nothing',
      request: { ...idParam, ...body(ImportOpenApiSchema) },
      responses: { ...importResponses, ...errors(403, 404, 422) },
    }),
    async (c) => {
      const row = await ownedService(db, c.req.valid('param').id, c.var.caller.userId);
      const ownDocument =
        row.runtime_type === 'http' && row.base_url ? new URL('openapi.json', row.base_url.replace(/\/*$/, '/')) : undefined;
      return c.json(await readEndpoints(c.req.valid('json'), ownDocument, urlPolicy), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/services/{id}/health_check',
      tags,
      summary: 'Checks the runtime: status and latency (stored as the service’s last health)',
      request: idParam,
      responses: { 200: json(HealthCheckSchema, 'Health'), ...errors(403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const row = await ownedService(db, id, c.var.caller.userId);
      const health = await runtimes.health(row);
      await recordHealth(services, id, health);
      return c.json(health, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/services/{id}/image',
      tags,
      summary: `Uploads the service's picture (PNG, JPEG, GIF or BMP up to ${MAX_IMAGE_BYTES / 1024 / 1024} MB), cropped to the card`,
      request: {
        ...idParam,
        body: {
          content: { 'multipart/form-data': { schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }) } },
          required: true,
        },
      },
      responses: { 200: serviceResponse('The service with its new image'), ...errors(403, 404, 413, 415, 422) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await ownedService(db, id, c.var.caller.userId);
      // The OpenAPI validator may already have read the body; formData() then answers the cached
      // form, and not always as a promise, so it is awaited inside a try.
      let form: FormData | undefined;
      try {
        form = await c.req.formData();
      } catch {
        form = undefined;
      }
      const file = form?.get('file');
      if (!(file instanceof Blob)) throw invalid('file: send the image as multipart/form-data field "file"');
      if (file.size > MAX_IMAGE_BYTES) throw tooLarge(`file: the image is ${file.size} bytes; the limit is ${MAX_IMAGE_BYTES}`);
      if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
        throw unsupportedType(`file: ${file.type || 'unknown type'} is not accepted; use ${IMAGE_TYPES.join(', ')}`);
      }
      try {
        const card = await cardImage(new Uint8Array(await file.arrayBuffer()));
        const url = await storeImage(card.bytes, card.contentType);
        return c.json(await setServiceImage(services, id, c.var.caller.userId, url), 200);
      } catch (error) {
        if (error instanceof ImageError) throw invalid(`file: ${error.message}`);
        throw error;
      }
    },
  );

  versionRoutes(app, { ...services, ...(registry ? { registry } : {}) });

  return app;
}
