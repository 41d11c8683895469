import { createRoute, z } from '@hono/zod-openapi';
import { MAX_SECRET_VALUE_BYTES } from '@limelight/rules';
import type { SignedInEnv } from '../api/authenticate';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { body, createApiApp, errors, json } from '../api/openapi';
import { deleteSecret, listSecrets, setSecret } from './serviceSecrets';

// /v1/model_management/services/{id}/secrets: a container service's secrets, by name
// (docs/publishing.md, "Secrets"; `limelight secrets`, the account area's service page). Mounted
// signed-in with API keys allowed, like publishing (v1/mounts.ts); the owner only. No answer
// carries a value: a secret is written, listed by name and removed, never read back.

const tags = ['publishing'];

const SecretSchema = z
  .object({
    name: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ServiceSecret', { description: 'A secret’s name and times; its value is never returned' });

const SecretListSchema = z.object({ secrets: z.array(SecretSchema) }).openapi('ServiceSecretList');

const SetSecretSchema = z
  .object({
    value: z.string().openapi({ description: `The value, 1 to ${MAX_SECRET_VALUE_BYTES} bytes; stored sealed, never returned` }),
  })
  .openapi('ServiceSecretValue');

const ServiceParam = z.object({ id: z.string().min(1).max(200) });
const SecretParam = ServiceParam.extend({
  name: z.string().max(200).openapi({ description: 'An environment variable’s name: [A-Z_][A-Z0-9_]*, at most 64 characters' }),
});

export function secretRoutes({ db, box }: { db: Db; box: SecretBox }) {
  const app = createApiApp<SignedInEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/services/{id}/secrets',
      tags,
      summary: 'The service’s secrets: names and times only',
      request: { params: ServiceParam },
      responses: { 200: json(SecretListSchema, 'The secrets, by name'), ...errors(403, 404) },
    }),
    async (c) => c.json({ secrets: await listSecrets(db, c.req.valid('param').id, c.var.caller.userId) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/services/{id}/secrets/{name}',
      tags,
      summary: 'Sets a secret (replaces one of the same name); running instances get it on the next deploy',
      request: { params: SecretParam, ...body(SetSecretSchema) },
      responses: { 200: json(SecretSchema, 'The secret, without its value'), ...errors(403, 404, 409, 422) },
    }),
    async (c) => {
      const { id, name } = c.req.valid('param');
      return c.json(await setSecret(db, box, id, c.var.caller.userId, name, c.req.valid('json').value), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/services/{id}/secrets/{name}',
      tags,
      summary: 'Removes a secret; running instances lose it on the next deploy',
      request: { params: SecretParam },
      responses: { 200: json(z.object({ name: z.string() }), 'Removed'), ...errors(403, 404, 422) },
    }),
    async (c) => {
      const { id, name } = c.req.valid('param');
      return c.json(await deleteSecret(db, id, c.var.caller.userId, name), 200);
    },
  );

  return app;
}
