import { z } from '@hono/zod-openapi';
import { API_KEY_DEFAULT_LIFETIME_DAYS } from '@limelight/rules';
import { iso } from '../api/schemas';
import { API_KEY_SCOPES, DEFAULT_API_KEY_NAME, MAX_API_KEY_LIFETIME_DAYS, MAX_API_KEY_NAME_LENGTH } from './apiKeys';

// Request and response schemas of /v1/profile (checked against src/api by v1/contract.ts).

const nullableText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`).nullable().optional();

export const ProfileResultSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    full_name: z.string().nullable(),
    street: z.string().nullable(),
    number: z.string().nullable(),
    address_extra: z.string().nullable(),
    zip_code: z.string().nullable(),
    city: z.string().nullable(),
    country_code: z.string().nullable(),
    mobile: z.string().nullable(),
    date_of_birth: z.string().nullable(),
    dt_created: iso,
    profile_picture_url: z.string().nullable(),
    terms_accepted: z.boolean(),
    sign_up_bonus: z.number(),
    is_new_user: z.boolean(),
  })
  .openapi('Profile');

/** Read-only fields a client may echo back with its edits; they are ignored. */
const readOnly = z.unknown().optional();

export const ProfileUpdateSchema = z
  .object({
    full_name: nullableText(200),
    street: nullableText(200),
    number: nullableText(20),
    address_extra: nullableText(200),
    zip_code: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, 'must be 2 to 12 letters, digits, spaces or dashes')
      .nullable()
      .optional(),
    city: nullableText(100),
    country_code: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166 country code')
      .transform((v) => v.toUpperCase())
      .nullable()
      .optional(),
    mobile: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ()/-]{3,22}$/, 'must be a phone number such as +49 30 1234567')
      .nullable()
      .optional(),
    date_of_birth: z.iso.date('must be a date in the form YYYY-MM-DD').nullable().optional(),
    profile_picture_url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2000)
      .nullable()
      .optional(),
    id: readOnly,
    email: readOnly,
    dt_created: readOnly,
    terms_accepted: readOnly,
    sign_up_bonus: readOnly,
    is_new_user: readOnly,
  })
  .strict()
  .openapi('ProfileUpdate');

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ description: 'The name its owner gave it' }),
    display_value: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)).openapi({ description: 'What the key may do; account routes refuse every key' }),
    created_at: iso,
    expiration_date: iso,
    last_used_at: iso.nullable().openapi({ description: 'The last call it authenticated; null if never used' }),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  secret: z.string().openapi({ description: 'The full key; shown only in this response' }),
}).openapi('CreatedApiKey');

export const CreateApiKeySchema = z
  .object({
    expires_in_days: z
      .number()
      .int('must be a whole number of days')
      .min(1)
      .max(MAX_API_KEY_LIFETIME_DAYS)
      .default(API_KEY_DEFAULT_LIFETIME_DAYS),
    name: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_API_KEY_NAME_LENGTH, `must be at most ${MAX_API_KEY_NAME_LENGTH} characters`)
      .default(DEFAULT_API_KEY_NAME),
  })
  .openapi('CreateApiKey');

export const DeleteApiKeySchema = z.object({ api_key_id: z.uuid('must be an API key id') }).openapi('DeleteApiKey');

export const UsageStatisticsSchema = z
  .object({ monthly_api_calls: z.array(z.object({ month: z.string(), calls: z.number() })) })
  .openapi('UsageStatistics');

export const RegistryCredentialSchema = z
  .object({
    id: z.string(),
    alias: z.string(),
    foreign_username: z.string(),
    credential_alias: z.string(),
    pat: z.string().openapi({ description: 'Masked; the full token is never returned' }),
    platform: z.enum(['dockerhub', 'registry']),
    registry: z.string().openapi({ description: 'host[:port] of the registry the token is for' }),
  })
  .openapi('RegistryCredential');

export const UpsertPatSchema = z
  .object({
    foreign_username: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9._-]{1,49}$/i, 'must be a Docker Hub user name (2-50 letters, digits, dots, dashes, underscores)'),
    credential_alias: z.string().trim().min(1, 'must not be empty').max(100),
    pat: z.string().trim().min(8, 'must be an access token of at least 8 characters').max(1000),
    platform: z.enum(['dockerhub', 'registry'], 'must be dockerhub or registry').default('dockerhub'),
    registry: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:\d{1,5})?$/, 'must be a registry host[:port], e.g. ghcr.io or 127.0.0.1:5000')
      .optional()
      .openapi({ description: 'host[:port] of the registry (default docker.io); used only to pull the image' }),
  })
  .refine((v) => v.platform !== 'dockerhub' || v.registry === undefined || v.registry === 'docker.io', {
    path: ['registry'],
    message: 'a dockerhub credential is for docker.io; use platform "registry" for another registry',
  })
  .openapi('UpsertPat');

export const DeletePatSchema = z.object({ pat_id: z.uuid('must be a credential id') }).openapi('DeletePat');
