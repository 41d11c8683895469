import { z } from '@hono/zod-openapi';

// Request and response schemas of the platform API. They validate input, document the API at
// /v1/openapi.json and (see contract.ts) are checked against the client's types in src/api.

export const ErrorSchema = z.object({ detail: z.string() }).openapi('Error');

const iso = z.string().openapi({ format: 'date-time' });

export const ModelCategorySchema = z
  .object({ id: z.string(), title: z.string(), input_domain: z.array(z.string()), output_domain: z.array(z.string()) })
  .openapi('ModelCategory');

const EndpointParameterSchema = z.object({
  name: z.string(),
  type: z.enum(['string', 'integer', 'number', 'boolean', 'file', 'array', 'object']),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

const ServiceEndpointSchema = z.object({
  method: z.enum(['GET', 'POST']),
  path: z.string(),
  description: z.string().optional(),
  parameters: z.array(EndpointParameterSchema),
});

export const ModelDescriptorSchema = z
  .object({
    id: z.string(),
    display_name: z.string().nullable().optional(),
    model_desc: z.string().nullable().optional().openapi({ description: 'HTML; clients sanitise it' }),
    display_img_url: z.string().nullable().optional(),
    used_models: z.array(z.string()).nullable().optional(),
    model_category: z
      .union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())])
      .nullable()
      .optional()
      .openapi({ description: 'A category id, a list of ids, or an object keyed by category id' }),
    created_by: z.string().nullable().optional(),
    created_at: iso.nullable().optional(),
    n_usages: z.number().nullable().optional(),
    sort_idx_featured: z.number().nullable().optional(),
    provider: z.string().nullable().optional(),
    owner_name: z.string().nullable().optional(),
    is_public: z.boolean().optional(),
    endpoints: z.array(ServiceEndpointSchema).optional(),
  })
  .openapi('ModelDescriptor');

export const PricingServerSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    provider: z.string(),
    physical_gpus: z.number(),
    gpu_vram_gb: z.number(),
    customer_price_per_s_usd: z.number(),
  })
  .openapi('PricingServer');

export const ModelPricingRowSchema = z
  .object({ model_id: z.string(), display_name: z.string(), unit: z.enum(['request', 'second']), price_usd: z.number() })
  .openapi('ModelPricingRow');

export const HostingInformationSchema = z
  .object({
    hosted_model_id: z.string(),
    model_id: z.string(),
    status: z.enum(['deploying', 'running', 'scaled_to_zero', 'failed', 'stopped']),
    gpu: z.string(),
    min_instances: z.number(),
    max_instances: z.number(),
    endpoint_url: z.string(),
    updated_at: iso,
  })
  .openapi('HostingInformation');

export const HostingQuerySchema = z.object({
  hosted_model_id: z.string().min(1).max(200).optional(),
  model_id: z.string().min(1).max(200).optional(),
});

export const PlanSchema = z
  .object({
    key: z.enum(['free', 'plus', 'pro', 'enterprise']),
    title: z.string(),
    sub: z.string(),
    currency: z.string(),
    priceMajor: z.number(),
    priceCents: z.number(),
    strikeThrough: z.string().nullable().optional(),
    buttonText: z.string(),
    badge: z.string().nullable().optional(),
    active: z.boolean(),
    features: z.array(z.string()),
  })
  .openapi('Plan');

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
  .object({ id: z.string(), display_value: z.string(), created_at: iso, expiration_date: iso })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  secret: z.string().openapi({ description: 'The full key; shown only in this response' }),
}).openapi('CreatedApiKey');

export const CreateApiKeySchema = z
  .object({ expires_in_days: z.number().int('must be a whole number of days').min(1).max(3650).default(183) })
  .openapi('CreateApiKey');

export const DeleteApiKeySchema = z.object({ api_key_id: z.uuid('must be an API key id') }).openapi('DeleteApiKey');

export const IdResultSchema = z.object({ id: z.string() });

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
    platform: z.literal('dockerhub'),
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
    platform: z.literal('dockerhub', 'only dockerhub is supported').default('dockerhub'),
  })
  .openapi('UpsertPat');

export const DeletePatSchema = z.object({ pat_id: z.uuid('must be a credential id') }).openapi('DeletePat');

export const BalanceSchema = z.object({ balance: z.number() }).openapi('Balance');

export const TransactionSchema = z
  .object({
    id: z.string(),
    amount: z.number(),
    kind: z.enum(['sign_up_bonus', 'purchase', 'usage', 'payout', 'earning', 'adjustment']),
    description: z.string(),
    created_at: iso,
  })
  .openapi('Transaction');

export const CheckoutSessionSchema = z
  .object({ id: z.string(), url: z.string(), status: z.enum(['open', 'complete', 'expired']) })
  .openapi('CheckoutSession');

export const MAX_CREDITS_PER_PURCHASE = 1_000_000;

export const BuyCreditSchema = z
  .object({
    quantity: z
      .number('must be a number of credits')
      .int('must be a whole number of credits')
      .min(1, 'must be at least 1')
      .max(MAX_CREDITS_PER_PURCHASE, `must be at most ${MAX_CREDITS_PER_PURCHASE}`),
    success_url: z.string().max(2000).optional(),
    cancel_url: z.string().max(2000).optional(),
  })
  .openapi('BuyCredit');

export const SubscriptionSchema = z
  .object({
    plan_type: z.enum(['free', 'plus', 'pro', 'enterprise']),
    status: z.enum(['none', 'active', 'canceled', 'past_due']),
    cancel_at_period_end: z.boolean(),
    current_period_end: iso.nullable(),
    checkout_url: z.string().nullable().optional(),
  })
  .openapi('Subscription');

export const SubscriptionCreateSchema = z
  .object({
    plan_type: z.enum(['free', 'plus', 'pro', 'enterprise'], 'must be one of free, plus, pro, enterprise'),
    cancel_url: z.string().max(2000),
    success_url: z.string().max(2000),
  })
  .openapi('SubscriptionCreate');

export const SubscriptionOptionSchema = z
  .object({ id: z.number(), display_value: z.string(), description: z.string() })
  .openapi('SubscriptionOption');

export const NewsletterSchema = z
  .object({
    email: z.email('must be a valid e-mail address').max(254),
    products: z.array(z.number('must list option ids').int()).max(50),
  })
  .openapi('Newsletter');

export const MAX_ATTACHMENTS = 5;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
export const MAX_TOTAL_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/zip',
] as const;

export const SupportSchema = z
  .object({
    topic: z.string().trim().min(1, 'must not be empty').max(100),
    subject: z.string().trim().min(1, 'must not be empty').max(200),
    message: z.string().trim().min(1, 'must not be empty').max(10_000),
    attachments: z
      .array(
        z.object({
          filename: z
            .string()
            .trim()
            .min(1)
            .max(200)
            .refine((name) => !/[/\\]/.test(name) && ![...name].some((ch) => ch.charCodeAt(0) < 32), 'must be a plain file name'),
          content_type: z.enum(ATTACHMENT_TYPES, `must be one of ${ATTACHMENT_TYPES.join(', ')}`),
          data_base64: z.string().max(Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 8, 'exceeds 5 MB'),
        }),
      )
      .max(MAX_ATTACHMENTS, `at most ${MAX_ATTACHMENTS} attachments`)
      .optional(),
  })
  .openapi('Support');
