import { createRoute, z } from '@hono/zod-openapi';
import { API_KEY_DEFAULT_LIFETIME_DAYS } from '@limelight/rules';
import type { SignedInEnv } from '../api/authenticate';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { IdempotencyKeyHeaders, idempotentCreate } from '../api/idempotency';
import { body, createApiApp, errors, json } from '../api/openapi';
import { IdResultSchema } from '../api/schemas';
import { createApiKey, deleteApiKey, listApiKeys } from './apiKeys';
import { agreeToTerms, loadProfile, updateProfile } from './details';
import { deleteCredential, listCredentials, saveCredential } from './registryCredentials';
import {
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  DeleteApiKeySchema,
  DeletePatSchema,
  ProfileResultSchema,
  ProfileUpdateSchema,
  RegistryCredentialSchema,
  UpsertPatSchema,
  UsageStatisticsSchema,
} from './schemas';
import { usageStatistics } from './usage';

// /v1/profile/: profile and terms, API keys, usage statistics, container-registry tokens.
// Mounted signed-in only (v1/mounts.ts), so every handler has `c.var.caller`.

const tags = ['profile'];

export function profileRoutes({ db, box }: { db: Db; box: SecretBox }) {
  const app = createApiApp<SignedInEnv>();
  const profileResponse = { 200: json(ProfileResultSchema, 'The profile'), ...errors(404) };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/sign_in_sign_up',
      tags,
      summary: 'Called after sign-in or sign-up: makes sure the profile exists and returns it',
      responses: profileResponse,
    }),
    async (c) => c.json(await loadProfile(db, c.var.caller.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/profile',
      tags,
      summary: 'The caller’s profile with sign_up_bonus and is_new_user',
      responses: profileResponse,
    }),
    async (c) => c.json(await loadProfile(db, c.var.caller.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/agree_to_terms',
      tags,
      summary: 'Accepts the terms of service (is_new_user becomes false)',
      responses: profileResponse,
    }),
    async (c) => c.json(await agreeToTerms(db, c.var.caller.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/update_profile',
      tags,
      summary: 'Updates the given profile fields; null clears a field, read-only fields are ignored',
      request: body(ProfileUpdateSchema),
      responses: { ...profileResponse, ...errors(422) },
    }),
    async (c) => c.json(await updateProfile(db, c.var.caller.userId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api_keys',
      tags,
      summary: 'The caller’s API keys, masked',
      responses: { 200: json(z.array(ApiKeySchema), 'API keys') },
    }),
    async (c) => c.json(await listApiKeys(db, c.var.caller.userId), 200),
  );

  app.use('/create_api_key', idempotentCreate(db));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/create_api_key',
      tags,
      summary: `Creates an API key (default lifetime ${API_KEY_DEFAULT_LIFETIME_DAYS} days); the secret is in this response only`,
      request: {
        body: { content: { 'application/json': { schema: CreateApiKeySchema } }, required: false },
        headers: IdempotencyKeyHeaders,
      },
      responses: { 200: json(CreatedApiKeySchema, 'The new key with its secret'), ...errors(409, 422) },
    }),
    async (c) => {
      const { expires_in_days, name } = CreateApiKeySchema.parse(c.req.valid('json') ?? {});
      return c.json(await createApiKey(db, c.var.caller.userId, expires_in_days, name), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/delete_api_key',
      tags,
      summary: 'Deletes one of the caller’s API keys',
      request: body(DeleteApiKeySchema),
      responses: { 200: json(IdResultSchema, 'Deleted'), ...errors(404, 422) },
    }),
    async (c) => c.json(await deleteApiKey(db, c.var.caller.userId, c.req.valid('json').api_key_id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/usage_statistics',
      tags,
      summary: 'API calls per month over the last 12 months, oldest first',
      responses: { 200: json(UsageStatisticsSchema, 'Usage') },
    }),
    async (c) => c.json(await usageStatistics(db, c.var.caller.userId), 200),
  );

  app.use('/upsert_pat', idempotentCreate(db));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/upsert_pat',
      tags,
      summary: 'Stores a container-registry access token (sealed at rest); same alias replaces it',
      request: { ...body(UpsertPatSchema), headers: IdempotencyKeyHeaders },
      responses: { 200: json(RegistryCredentialSchema, 'The credential, token masked'), ...errors(409, 422) },
    }),
    async (c) => c.json(await saveCredential(db, box, c.var.caller.userId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/delete_pat',
      tags,
      summary: 'Deletes a container-registry credential',
      request: body(DeletePatSchema),
      responses: { 200: json(IdResultSchema, 'Deleted'), ...errors(404, 422) },
    }),
    async (c) => c.json(await deleteCredential(db, c.var.caller.userId, c.req.valid('json').pat_id), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/get_pat_token',
      tags,
      summary: 'The caller’s registry credentials; tokens masked, never returned in full',
      responses: { 200: json(z.array(RegistryCredentialSchema), 'Credentials') },
    }),
    async (c) => c.json(await listCredentials(db, c.var.caller.userId), 200),
  );

  return app;
}
