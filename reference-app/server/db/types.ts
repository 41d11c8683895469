import type { ColumnType, Generated, Kysely } from 'kysely';

// Row types of every table, as Kysely sees them. JSON columns are written as JSON text (both
// drivers then agree) and read back parsed; numeric and int8 columns read back as numbers.

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type Amr = Array<{ method: string; timestamp: number }>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  encrypted_password: string | null;
  email_confirmed_at: Timestamp | null;
  confirmation_sent_at: Timestamp | null;
  recovery_sent_at: Timestamp | null;
  email_change: string | null;
  email_change_sent_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  raw_app_meta_data: Json<Record<string, unknown>>;
  raw_user_meta_data: Json<Record<string, unknown>>;
  banned_until: Timestamp | null;
  /** When an administrator invited the user (GoTrue's invited_at); null otherwise. */
  invited_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface IdentitiesTable {
  id: Generated<string>;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Json<Record<string, unknown>>;
  last_sign_in_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  aal: string;
  amr: Json<Amr>;
  factor_id: string | null;
  user_agent: string | null;
  ip: string | null;
  refreshed_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  token_hash: string;
  /** The token itself, encrypted: needed to hand the active token back to a retrying client. */
  token_enc: string;
  session_id: string;
  user_id: string;
  parent_id: number | null;
  revoked: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MfaFactorsTable {
  id: Generated<string>;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  secret_enc: string;
  /** The TOTP time step of the last accepted code; an older or equal step is a replay. */
  last_totp_step: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface MfaChallengesTable {
  id: Generated<string>;
  factor_id: string;
  ip: string;
  verified_at: Timestamp | null;
  failed_attempts: Generated<number>;
  created_at: CreatedAt;
}

export interface OneTimeTokensTable {
  id: Generated<string>;
  user_id: string;
  token_type: string;
  token_hash: string;
  otp_hash: string;
  relates_to: string;
  flow_state_id: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** Wrong 6-digit codes tried against this token; at MAX_CODE_ATTEMPTS it is void. */
  failed_attempts: Generated<number>;
  created_at: CreatedAt;
}

export interface FlowStatesTable {
  id: Generated<string>;
  user_id: string | null;
  auth_code_hash: string | null;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  provider: string | null;
  redirect_to: string | null;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuthKeysTable {
  kid: string;
  alg: string;
  public_jwk: Json<Record<string, unknown>>;
  private_jwk_enc: string;
  retired_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: UpdatedAt;
}

export interface MailMessagesTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: Json<string[]>;
  created_at: CreatedAt;
}

export interface ProfilesTable {
  user_id: string;
  full_name: string | null;
  street: string | null;
  number: string | null;
  address_extra: string | null;
  zip_code: string | null;
  city: string | null;
  country_code: string | null;
  mobile: string | null;
  date_of_birth: string | null;
  profile_picture_url: string | null;
  terms_accepted: Generated<boolean>;
  terms_accepted_at: Timestamp | null;
  dt_created: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ModelCategoriesTable {
  id: string;
  title: string;
  input_domain: Json<string[]>;
  output_domain: Json<string[]>;
  sort_idx: number;
}

export interface ModelsTable {
  id: string;
  display_name: string | null;
  model_desc: string | null;
  display_img_url: string | null;
  used_models: Json<string[] | null>;
  model_category: Json<unknown>;
  created_by: string | null;
  owner_name: string | null;
  provider: string;
  is_public: boolean;
  n_usages: ColumnType<number, number | undefined, number>;
  sort_idx_featured: number | null;
  endpoints: Json<unknown[]>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: UpdatedAt;
  /** 'active' or 'paused' (a paused service refuses runs). */
  status: ColumnType<string, string | undefined, string>;
  /** Set when the owner deletes the service: it leaves the catalogue, its history stays. */
  deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ServiceRuntimesTable {
  model_id: string;
  type: 'http' | 'container';
  base_url: string | null;
  /** The request headers (secrets) as one sealed JSON object. */
  headers_sealed: string | null;
  header_names: Json<string[]>;
  image: string | null;
  registry_credential_id: string | null;
  gpu: string | null;
  min_instances: number | null;
  max_instances: number | null;
  idle_timeout_s: number | null;
  /** Container contract (docs/publishing.md): the port served, the health path, jobs per instance. */
  port: ColumnType<number | null, number | null | undefined, number | null>;
  health_path: ColumnType<string | null, string | null | undefined, string | null>;
  concurrency: ColumnType<number | null, number | null | undefined, number | null>;
  /** What one instance may use (migration 018, docs/publishing.md "Resources"); null: the defaults. */
  cpu: ColumnType<number | null, number | null | undefined, number | null>;
  memory_mb: ColumnType<number | null, number | null | undefined, number | null>;
  gpu_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** Starts from zero may restore a memory snapshot (migration 023); null reads as true. */
  snapshot: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  last_health: ColumnType<unknown, string | null, string | null>;
  /** The secrets' fingerprint at the last deploy (migration 020, secrets/env.ts); null before one. */
  secrets_deployed: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: UpdatedAt;
}

export interface ModelHostingTable {
  hosted_model_id: string;
  model_id: string;
  status: string;
  gpu: string;
  min_instances: number;
  max_instances: number;
  /** The runner's words about the status (a failure's reason and last log lines). */
  message: ColumnType<string | null, string | null | undefined, string | null>;
  instances: ColumnType<number, number | undefined, number>;
  last_cold_start_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** The deployment's memory snapshot (migration 022; docs/deploy.md, "Snapshot cold starts"): bytes and when taken. */
  snapshot_bytes: ColumnType<string | number | null, number | null | undefined, number | null>;
  snapshot_taken_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Where a running instance answers (the managing runner's view). */
  base_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The latest rollout (docs/publishing.md, "Rollouts"): the image saved, whether it serves, why not. */
  rollout_image: ColumnType<string | null, string | null | undefined, string | null>;
  rollout_status: ColumnType<string | null, string | null | undefined, string | null>;
  rollout_message: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: UpdatedAt;
}

/** A container service's version (migration 021): an image it was saved with, who and when, and its rollout's outcome. */
export interface ServiceVersionsTable {
  id: ColumnType<string, never, never>;
  model_id: string;
  image: string;
  digest: string | null;
  kind: ColumnType<string, string | undefined, string>;
  deployed_by: string | null;
  deployed_at: CreatedAt;
  outcome: ColumnType<string, string | undefined, string>;
  outcome_message: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which runner process manages a deployment, until `expires_at` unless renewed. */
export interface DeploymentLeasesTable {
  deployment_id: string;
  holder: string;
  expires_at: Timestamp;
}

export interface DeploymentLogsTable {
  id: Generated<string>;
  deployment_id: string;
  job_id: string | null;
  at: CreatedAt;
  stream: string;
  instance: string;
  line: string;
}

export interface PricingServersTable {
  id: string;
  display_name: string;
  provider: string;
  physical_gpus: number;
  gpu_vram_gb: number;
  customer_price_per_s_usd: number;
}

export interface ModelPricingTable {
  model_id: string;
  unit: string;
  price_usd: number;
}

export interface PlansTable {
  key: string;
  title: string;
  sub: string;
  currency: string;
  price_major: number;
  price_cents: number;
  strike_through: string | null;
  button_text: string;
  badge: string | null;
  active: boolean;
  features: Json<string[]>;
  sort_idx: number;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  key_hash: string;
  display_value: string;
  name: Generated<string>;
  expiration_date: Timestamp;
  last_used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface ApiUsageTable {
  user_id: string;
  month: string;
  calls: ColumnType<number, number, number>;
}

export interface RegistryCredentialsTable {
  id: Generated<string>;
  user_id: string;
  platform: string;
  credential_alias: string;
  foreign_username: string;
  pat_enc: string;
  pat_last4: string;
  /** host[:port] of the registry the credential is for (docker.io by default). */
  registry: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  amount: number;
  kind: string;
  description: string;
  /** Idempotency reference, e.g. the checkout session that paid for the entry. */
  reference: string | null;
  created_at: CreatedAt;
}

/** Each user's balance: the sum of their ledger entries, kept by triggers (migration 013). */
export interface CreditBalancesTable {
  user_id: string;
  balance: number;
}

export interface CheckoutSessionsTable {
  id: string;
  user_id: string;
  provider: string;
  purpose: string;
  quantity: number;
  amount_minor: number;
  currency: string;
  plan_type: string | null;
  status: string;
  url: string;
  provider_ref: string | null;
  success_url: string | null;
  cancel_url: string | null;
  completed_at: Timestamp | null;
  created_at: CreatedAt;
  /** The subscription checkout that replaced this one while it was open (migration 004). */
  superseded_by: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A payment the platform must give back (e.g. for a superseded checkout); never a silent plan change. */
export interface PaymentRefundCasesTable {
  id: Generated<string>;
  checkout_id: string;
  user_id: string;
  provider: string;
  provider_ref: string | null;
  subscription_ref: string | null;
  amount_minor: number;
  currency: string;
  reason: string;
  status: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
  resolved_at: Timestamp | null;
}

/** Mail waiting to be sent or retried; sent_at is set once the mailer accepted it. */
export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface SubscriptionsTable {
  user_id: string;
  plan_type: string;
  status: string;
  cancel_at_period_end: boolean;
  current_period_end: Timestamp | null;
  provider: string;
  provider_ref: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface NewsletterOptionsTable {
  id: number;
  display_value: string;
  description: string;
}

export interface NewsletterSubscriptionsTable {
  email: string;
  option_id: number;
  created_at: CreatedAt;
  /** Set when the address confirmed through the mailed link; only confirmed rows count. */
  confirmed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface SupportTicketsTable {
  id: Generated<string>;
  user_id: string;
  topic: string;
  subject: string;
  message: string;
  created_at: CreatedAt;
  /** Hash of the request's content: a client's retry returns the ticket instead of a second one. */
  request_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SupportAttachmentsTable {
  id: Generated<string>;
  ticket_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  /** Bytes of attachments stored before the media store (migration 004); new ones are null. */
  data: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  /** The file's key in the media store. */
  media_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface OAuthStatesTable {
  id: string;
  provider: string;
  redirect_to: string;
  flow_state_id: string | null;
  created_at: CreatedAt;
}

/** rate-limiter-flexible's counters (http/rateLimit.ts): `expire` in epoch milliseconds. */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface JobsTable {
  id: Generated<string>;
  user_id: string;
  service_id: string;
  endpoint: string;
  status: ColumnType<string, string | undefined, string>;
  progress: ColumnType<number, number | undefined, number>;
  message: string | null;
  input: Json<Record<string, unknown>>;
  result: Json<unknown>;
  error: Json<{ code: string; message: string } | null>;
  runtime: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  worker_id: string | null;
  lease_until: Timestamp | null;
  cancel_requested: ColumnType<boolean, boolean | undefined, boolean>;
  version: ColumnType<number, number | undefined, number>;
  time_limit_s: number;
  price_per_s_usd: number;
  gpu_seconds: number | null;
  cost_credits: number | null;
  idempotency_key: string | null;
  request_hash: string | null;
  webhook_url: string | null;
  /** What the webhook is sent for (migration 014); null: only when the job ends. */
  webhook_events: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: CreatedAt;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  output_expires_at: Timestamp | null;
  /** Container deployments: the cold start this job waited for (0 on a warm instance). */
  cold_start_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** Where that cold start came from (migration 022): snapshot, paused, created, image or warm. */
  cold_start_tier: ColumnType<string | null, string | null | undefined, string | null>;
  hold_credits: ColumnType<number, number | undefined, number>;
  publisher_id: string | null;
  result_bytes: number | null;
}

export interface JobUsersTable {
  user_id: string;
  queued: number;
  running: number;
  served_at: Timestamp | null;
}

export interface StoredFilesTable {
  key: string;
  user_id: string | null;
  job_id: string | null;
  content_type: string;
  size: number;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  job_id: string;
  user_id: string;
  url: string;
  status: ColumnType<string, string | undefined, string>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  /** start, output, logs or completed (migration 014). */
  event: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  mfa_factors: MfaFactorsTable;
  mfa_challenges: MfaChallengesTable;
  one_time_tokens: OneTimeTokensTable;
  flow_states: FlowStatesTable;
  oauth_states: OAuthStatesTable;
  auth_keys: AuthKeysTable;
  settings: SettingsTable;
  mail_messages: MailMessagesTable;
  profiles: ProfilesTable;
  model_categories: ModelCategoriesTable;
  models: ModelsTable;
  model_hosting: ModelHostingTable;
  service_runtimes: ServiceRuntimesTable;
  pricing_servers: PricingServersTable;
  model_pricing: ModelPricingTable;
  plans: PlansTable;
  api_keys: ApiKeysTable;
  api_usage: ApiUsageTable;
  registry_credentials: RegistryCredentialsTable;
  credit_ledger: CreditLedgerTable;
  credit_balances: CreditBalancesTable;
  checkout_sessions: CheckoutSessionsTable;
  subscriptions: SubscriptionsTable;
  newsletter_options: NewsletterOptionsTable;
  newsletter_subscriptions: NewsletterSubscriptionsTable;
  support_tickets: SupportTicketsTable;
  support_attachments: SupportAttachmentsTable;
  payment_refund_cases: PaymentRefundCasesTable;
  mail_outbox: MailOutboxTable;
  rate_limits: RateLimitsTable;
  jobs: JobsTable;
  deployment_leases: DeploymentLeasesTable;
  deployment_logs: DeploymentLogsTable;
  job_users: JobUsersTable;
  stored_files: StoredFilesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  idempotency_keys: IdempotencyKeysTable;
  service_versions: ServiceVersionsTable;
  service_secrets: ServiceSecretsTable;
}

/** A container service's secret (migration 020): the value sealed, never answered. */
export interface ServiceSecretsTable {
  model_id: string;
  name: string;
  value_sealed: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** An Idempotency-Key of an account create (migration 015); the answer is null while it runs. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

/**
 * The database, or an open transaction: Kysely's Transaction is a Kysely, so every query
 * function takes a Db and runs inside whatever transaction its caller opened. A function that
 * must run inside a transaction (several writes that stand or fall together) says so in its
 * comment and is called from `db.transaction().execute(async (trx) => …)`.
 */
export type Db = Kysely<Database>;
