import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { Db } from '../db/types';
import { createApiApp, errors, json } from '../api/openapi';
import { iso } from '../api/schemas';
import { invalidFields, notFound } from '../errors';
import { activePlanOf } from '../payments/queries';
import { checkImageName, deleteImage, listImages } from './images';
import type { PlatformRegistry } from './platformRegistry';
import { registryQuotaMb, storedBytes } from './quota';

// The caller's images in the platform's registry (docs/publishing.md, "Your images"):
// GET /v1/registry/images lists them with sizes, push times and the services saved with each;
// DELETE /v1/registry/images/{name}[/{reference}] deletes a repository, a tag or a digest. Signed
// in, API keys allowed (v1/mounts.ts: `limelight images` signs in with a key), and only ever the
// caller's own namespace: the name is always taken under it.

const tags = ['registry'];

const ServiceRefSchema = z.object({ id: z.string(), name: z.string() });

const StoredImageSchema = z
  .object({
    digest: z.string().openapi({ example: `sha256:${'0'.repeat(64)}` }),
    tags: z.array(z.string()),
    size_bytes: z.number().int().openapi({ description: 'The manifest, its config and its layers (compressed), as pushed' }),
    pushed_at: iso,
    used_by: z.array(ServiceRefSchema).openapi({ description: 'Your container services saved with this image: it cannot be deleted' }),
  })
  .openapi('RegistryImage');

const CollectionSchema = z.object({
  at: iso,
  gc_ms: z.number(),
  read_only_ms: z.number(),
  blobs_deleted: z.number(),
  repositories: z.number(),
});

const RegistryImagesSchema = z
  .object({
    host: z.string(),
    namespace: z.string(),
    plan: z.string(),
    used_bytes: z.number().int().openapi({ description: 'What the storage quota counts now' }),
    quota_bytes: z.number().int(),
    garbage_collection: z.object({
      pending: z.boolean().openapi({ description: 'Deleted images whose bytes are not freed yet (freed within about a minute)' }),
      last: CollectionSchema.nullable(),
    }),
    repositories: z.array(z.object({ name: z.string(), images: z.array(StoredImageSchema) })),
  })
  .openapi('RegistryImages');

const DeletedSchema = z
  .object({
    name: z.string(),
    deleted_digests: z.array(z.string()),
    untagged: z.array(z.string()),
    repository_deleted: z.boolean(),
  })
  .openapi('RegistryImageDeleted');

const NameParam = z.object({
  name: z.string().openapi({ description: 'The image name under your namespace (`my-service`; a nested name with %2F)' }),
});
const ReferenceParam = NameParam.extend({
  reference: z.string().openapi({ description: 'A tag (`1`, `latest`) or a digest (`sha256:…`)' }),
});

export function registryImageRoutes(deps: { db: Db; registry?: PlatformRegistry }) {
  const app = createApiApp<SignedInEnv>();

  /** The registry and the caller's namespace, or 404 when there is none. */
  const where = async (userId: string) => {
    const registry = deps.registry;
    if (!registry) throw notFound('This platform runs no registry (container hosting is off)');
    const namespace = await registry.namespaceOf(userId);
    if (!namespace) throw notFound('The account no longer exists');
    return { registry, namespace, backend: registry.backend() };
  };

  const remove = async (userId: string, name: string, reference?: string) => {
    const problem = checkImageName(name, reference);
    if (problem)
      throw invalidFields([
        { name: reference !== undefined && checkImageName(name) === undefined ? 'reference' : 'name', rule: 'pattern', message: problem },
      ]);
    const { registry, namespace, backend } = await where(userId);
    const result = await deleteImage(deps.db, backend, userId, namespace, name, reference);
    if (result.deleted_digests.length > 0 || result.untagged.length > 0) registry.garbage.schedule(`${namespace}/${name}`);
    return { name, ...result };
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/registry/images',
      tags,
      summary: "Your images in the platform's registry: repositories, tags, digests, sizes, push times, the quota used",
      responses: { 200: json(RegistryImagesSchema, 'Your images'), ...errors(404) },
    }),
    async (c) => {
      const userId = c.var.caller.userId;
      const { registry, namespace, backend } = await where(userId);
      const plan = await activePlanOf(deps.db, userId);
      const [repositories, used] = await Promise.all([
        listImages(deps.db, backend, userId, namespace),
        storedBytes(backend.storageDir, namespace),
      ]);
      return c.json(
        {
          host: registry.host,
          namespace,
          plan,
          used_bytes: used,
          quota_bytes: registryQuotaMb(plan, backend.quotaCapMb) * 1024 * 1024,
          garbage_collection: { pending: registry.garbage.pending, last: registry.garbage.last },
          repositories,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/registry/images/{name}',
      tags,
      summary: 'Deletes a whole repository of yours; its bytes are freed by the garbage collection that follows',
      request: { params: NameParam },
      responses: { 200: json(DeletedSchema, 'Deleted'), ...errors(404, 409, 422) },
    }),
    async (c) => c.json(await remove(c.var.caller.userId, c.req.valid('param').name), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/registry/images/{name}/{reference}',
      tags,
      summary: 'Deletes a tag or a digest of yours (409 while one of your services is saved with it)',
      request: { params: ReferenceParam },
      responses: { 200: json(DeletedSchema, 'Deleted'), ...errors(404, 409, 422) },
    }),
    async (c) => {
      const { name, reference } = c.req.valid('param');
      return c.json(await remove(c.var.caller.userId, name, reference), 200);
    },
  );

  return app;
}
