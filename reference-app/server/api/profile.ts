import { createRoute, z } from '@hono/zod-openapi';
import { randomToken, sha256 } from '../crypto/tokens';
import { isUniqueViolation } from '../db/errors';
import { API_KEY_PREFIX, authenticate, requireCaller } from './caller';
import type { ApiDeps } from './deps';
import { conflict, notFound } from './errors';
import { lastMonths } from './months';
import { bearer, body, errors, json, type ApiApp } from './openapi';
import { loadProfile } from './profiles';
import {
  ApiKeySchema,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  DeleteApiKeySchema,
  DeletePatSchema,
  IdResultSchema,
  ProfileResultSchema,
  ProfileUpdateSchema,
  RegistryCredentialSchema,
  UpsertPatSchema,
  UsageStatisticsSchema,
} from './schemas';

// /v1/profile/ (spec §7): profile and terms, API keys (secret shown once, stored as a hash),
// usage statistics, container-registry tokens (sealed at rest, returned masked).

const tags = ['profile'];
const MAX_API_KEYS = 25;
const MAX_CREDENTIALS = 20;
const USAGE_MONTHS = 12;
const DAY_MS = 86_400_000;

const maskKey = (secret: string) => `${API_KEY_PREFIX}…${secret.slice(-4)}`;
const maskPat = (last4: string) => `${'•'.repeat(8)}${last4}`;

export function registerProfile(app: ApiApp, deps: ApiDeps) {
  const { db, box } = deps;
  const profileResponse = { 200: json(ProfileResultSchema, 'The profile'), ...errors(401, 404) };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/sign_in_sign_up',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Called after sign-in or sign-up: makes sure the profile exists and returns it',
      responses: profileResponse,
    }),
    async (c) => c.json(await loadProfile(db, await requireCaller(c, deps)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/profile/profile',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'The caller’s profile with sign_up_bonus and is_new_user',
      responses: profileResponse,
    }),
    async (c) => c.json(await loadProfile(db, await requireCaller(c, deps)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/agree_to_terms',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Accepts the terms of service (is_new_user becomes false)',
      responses: profileResponse,
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      await loadProfile(db, caller);
      await db
        .updateTable('profiles')
        .set({ terms_accepted: true, terms_accepted_at: new Date(), updated_at: new Date() })
        .where('user_id', '=', caller.userId)
        .where('terms_accepted', '=', false)
        .execute();
      return c.json(await loadProfile(db, caller), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/update_profile',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Updates the given profile fields; null clears a field, read-only fields are ignored',
      request: body(ProfileUpdateSchema),
      responses: { ...profileResponse, ...errors(422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const input = c.req.valid('json');
      await loadProfile(db, caller);
      const fields = [
        'full_name',
        'street',
        'number',
        'address_extra',
        'zip_code',
        'city',
        'country_code',
        'mobile',
        'date_of_birth',
        'profile_picture_url',
      ] as const;
      const patch: Partial<Record<(typeof fields)[number], string | null>> = {};
      for (const field of fields) {
        const value = input[field];
        if (value !== undefined) patch[field] = value === '' ? null : value;
      }
      if (Object.keys(patch).length) {
        await db
          .updateTable('profiles')
          .set({ ...patch, updated_at: new Date() })
          .where('user_id', '=', caller.userId)
          .execute();
      }
      return c.json(await loadProfile(db, caller), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/profile/api_keys',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'The caller’s API keys, masked',
      responses: { 200: json(z.array(ApiKeySchema), 'API keys'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const rows = await db.selectFrom('api_keys').selectAll().where('user_id', '=', caller.userId).orderBy('created_at', 'desc').execute();
      return c.json(
        rows.map((r) => ({
          id: r.id,
          display_value: r.display_value,
          created_at: r.created_at.toISOString(),
          expiration_date: r.expiration_date.toISOString(),
        })),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/create_api_key',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Creates an API key (default lifetime 183 days); the secret is in this response only',
      request: { body: { content: { 'application/json': { schema: CreateApiKeySchema } }, required: false } },
      responses: { 200: json(CreatedApiKeySchema, 'The new key with its secret'), ...errors(401, 409, 422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const { expires_in_days } = CreateApiKeySchema.parse(c.req.valid('json') ?? {});
      const count = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', caller.userId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_API_KEYS) throw conflict(`You have ${MAX_API_KEYS} API keys, the maximum; delete one first`);
      const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
      const row = await db
        .insertInto('api_keys')
        .values({
          user_id: caller.userId,
          key_hash: sha256(secret),
          display_value: maskKey(secret),
          expiration_date: new Date(Date.now() + expires_in_days * DAY_MS),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(
        {
          id: row.id,
          display_value: row.display_value,
          created_at: row.created_at.toISOString(),
          expiration_date: row.expiration_date.toISOString(),
          secret,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/delete_api_key',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Deletes one of the caller’s API keys',
      request: body(DeleteApiKeySchema),
      responses: { 200: json(IdResultSchema, 'Deleted'), ...errors(401, 404, 422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const { api_key_id } = c.req.valid('json');
      const deleted = await db
        .deleteFrom('api_keys')
        .where('id', '=', api_key_id)
        .where('user_id', '=', caller.userId)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw notFound(`api_key_id: no API key ${api_key_id} among yours`);
      return c.json({ id: deleted.id }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/profile/usage_statistics',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'API calls per month over the last 12 months, oldest first',
      responses: { 200: json(UsageStatisticsSchema, 'Usage'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const months = lastMonths(USAGE_MONTHS);
      const rows = await db
        .selectFrom('api_usage')
        .select(['month', 'calls'])
        .where('user_id', '=', caller.userId)
        .where('month', '>=', months[0]!)
        .execute();
      const byMonth = new Map(rows.map((r) => [r.month, r.calls]));
      return c.json({ monthly_api_calls: months.map((month) => ({ month, calls: byMonth.get(month) ?? 0 })) }, 200);
    },
  );

  const credentialOf = (r: { id: string; platform: string; credential_alias: string; foreign_username: string; pat_last4: string }) => ({
    id: r.id,
    alias: `${r.platform}/${r.credential_alias}`,
    foreign_username: r.foreign_username,
    credential_alias: r.credential_alias,
    pat: maskPat(r.pat_last4),
    platform: 'dockerhub' as const,
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/upsert_pat',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Stores a container-registry access token (sealed at rest); same alias replaces it',
      request: body(UpsertPatSchema),
      responses: { 200: json(RegistryCredentialSchema, 'The credential, token masked'), ...errors(401, 409, 422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const input = c.req.valid('json');
      const values = {
        foreign_username: input.foreign_username,
        pat_enc: box.seal(input.pat),
        pat_last4: input.pat.slice(-4),
        updated_at: new Date(),
      };
      const existing = await db
        .selectFrom('registry_credentials')
        .select('id')
        .where('user_id', '=', caller.userId)
        .where('platform', '=', input.platform)
        .where('credential_alias', '=', input.credential_alias)
        .executeTakeFirst();
      if (!existing) {
        const count = await db
          .selectFrom('registry_credentials')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', caller.userId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_CREDENTIALS)
          throw conflict(`You have ${MAX_CREDENTIALS} registry credentials, the maximum; delete one first`);
      }
      try {
        const row = await db
          .insertInto('registry_credentials')
          .values({ user_id: caller.userId, platform: input.platform, credential_alias: input.credential_alias, ...values })
          .onConflict((oc) => oc.columns(['user_id', 'platform', 'credential_alias']).doUpdateSet(values))
          .returningAll()
          .executeTakeFirstOrThrow();
        return c.json(credentialOf(row), 200);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict('credential_alias: saved by a concurrent request; retry');
        throw error;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/profile/delete_pat',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Deletes a container-registry credential',
      request: body(DeletePatSchema),
      responses: { 200: json(IdResultSchema, 'Deleted'), ...errors(401, 404, 422) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const { pat_id } = c.req.valid('json');
      const deleted = await db
        .deleteFrom('registry_credentials')
        .where('id', '=', pat_id)
        .where('user_id', '=', caller.userId)
        .returning('id')
        .executeTakeFirst();
      if (!deleted) throw notFound(`pat_id: no registry credential ${pat_id} among yours`);
      return c.json({ id: deleted.id }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/profile/get_pat_token',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'The caller’s registry credentials; tokens masked, never returned in full',
      responses: { 200: json(z.array(RegistryCredentialSchema), 'Credentials'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const rows = await db
        .selectFrom('registry_credentials')
        .selectAll()
        .where('user_id', '=', caller.userId)
        .orderBy('created_at')
        .execute();
      return c.json(rows.map(credentialOf), 200);
    },
  );
}
