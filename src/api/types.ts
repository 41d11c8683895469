// Entity shapes of product-rules §3, shared by the clients and the local platform server.
// Fields the spec leaves "not shown" are designed here and documented where they appear.

/** Domains of product-rules §3, in display order (product-rules §9). */
export const DOMAINS = ['TEXT', 'AUDIO', 'IMAGE', 'VIDEO', 'ANIMATION', 'MISC'] as const;
export type Domain = (typeof DOMAINS)[number];

/** Model providers (product-rules §3: the product's own and one third-party model host). */
export const MODEL_PROVIDERS = ['limelight', 'replicate'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export interface ModelCategory {
  id: string;
  title: string;
  input_domain: string[];
  output_domain: string[];
}

/** One parameter of a service endpoint (beyond the spec: "how to call it" on the service page). */
export interface EndpointParameter {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'file' | 'array' | 'object';
  required: boolean;
  default?: unknown;
  description?: string;
  /** Smallest allowed value (number, integer). */
  minimum?: number;
  /** Largest allowed value (number, integer). */
  maximum?: number;
  /** The only allowed values (a select in forms). */
  enum?: Array<string | number>;
  /** Values must be a multiple of this (number, integer). */
  step?: number;
  /** Type of the elements of an array parameter. */
  items?: { type: 'string' | 'integer' | 'number' | 'boolean' | 'file' | 'object' };
}

/** Media type of an endpoint's result, so clients know how to show it. */
export const OUTPUT_TYPES = ['image', 'audio', 'video', 'text', 'json', 'mesh', 'file'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

export interface EndpointOutput {
  type: OutputType;
  /** True when the result arrives as streamed text before the job ends (chat). */
  streaming?: boolean;
}

export interface ServiceEndpoint {
  method: 'GET' | 'POST';
  path: string;
  description?: string;
  parameters: EndpointParameter[];
  /** What a run returns; absent means JSON. */
  output?: EndpointOutput;
  /** Seconds a run may take before it ends as TIMEOUT (docs/jobs.md: default 120). */
  time_limit_s?: number;
  /** A sample input and what it returns; the playground shows it before the first run. */
  example?: { input?: Record<string, unknown>; result: unknown };
}

export interface ModelDescriptor {
  id: string;
  display_name?: string | null;
  model_desc?: string | null;
  display_img_url?: string | null;
  used_models?: string[] | null;
  /** A category id, a list of ids, or an object keyed by category id (product-rules §3). */
  model_category?: string | string[] | Record<string, unknown> | null;
  created_by?: string | null;
  created_at?: string | null;
  n_usages?: number | null;
  sort_idx_featured?: number | null;
  /** Beyond the spec: who hosts it, who owns it, whether it is public, how to call it. */
  provider?: string | null;
  owner_name?: string | null;
  is_public?: boolean;
  endpoints?: ServiceEndpoint[];
}

export interface PricingServer {
  id: string;
  display_name: string;
  provider: string;
  physical_gpus: number;
  gpu_vram_gb: number;
  customer_price_per_s_usd: number;
}

/** Model pricing table (product-rules §3: fields not shown): price per request or per second by model. */
export interface ModelPricingRow {
  model_id: string;
  display_name: string;
  unit: 'request' | 'second';
  price_usd: number;
}

export type PlanKey = 'free' | 'plus' | 'pro' | 'enterprise';

export interface Plan {
  key: PlanKey;
  title: string;
  sub: string;
  currency: string;
  priceMajor: number;
  priceCents: number;
  strikeThrough?: string | null;
  buttonText: string;
  badge?: string | null;
  active: boolean;
  features: string[];
}

export interface SubscriptionOption {
  id: number;
  display_value: string;
  description: string;
}

export interface NewsletterPayload {
  email: string;
  products: number[];
  /** Unsubscribing only: the token of a newsletter mail's unsubscribe link (not needed when signed in as the address). */
  token?: string;
}

export interface SupportAttachment {
  filename: string;
  content_type: string;
  /** File content, base64-encoded. */
  data_base64: string;
}

export interface SupportPayload {
  topic: string;
  subject: string;
  message: string;
  attachments?: SupportAttachment[];
}

export interface UserProfile {
  id: string;
  email: string;
  full_name: string | null;
  street: string | null;
  number: string | null;
  address_extra: string | null;
  zip_code: string | null;
  city: string | null;
  country_code: string | null;
  mobile: string | null;
  date_of_birth: string | null;
  dt_created: string;
  profile_picture_url: string | null;
  terms_accepted: boolean;
}

/** Profile plus the extra info of product-rules §3. */
export interface ProfileResult extends UserProfile {
  sign_up_bonus: number;
  is_new_user: boolean;
}

export type ProfileUpdate = Partial<Omit<UserProfile, 'id' | 'email' | 'dt_created' | 'terms_accepted'>>;

export interface ApiKey {
  id: string;
  /** Masked key for display, e.g. `lime_…a1b2`. */
  display_value: string;
  created_at: string;
  expiration_date: string;
}

/** Returned once by create_api_key: the only time the full secret is visible. */
export interface CreatedApiKey extends ApiKey {
  secret: string;
}

export interface RegistryCredential {
  id: string;
  alias: string;
  foreign_username: string;
  credential_alias: string;
  /** Masked token; the full token is never returned. */
  pat: string;
  platform: 'dockerhub';
}

export interface UpsertPatPayload {
  foreign_username: string;
  credential_alias: string;
  pat: string;
  platform?: 'dockerhub';
}

export interface UsageStatistics {
  /** Calls per month, oldest first; month as `YYYY-MM`. */
  monthly_api_calls: Array<{ month: string; calls: number }>;
}

export interface Balance {
  /** Credits: the ledger's sum. */
  balance: number;
}

export interface Transaction {
  id: string;
  amount: number;
  kind: 'sign_up_bonus' | 'purchase' | 'usage' | 'payout' | 'earning' | 'adjustment';
  description: string;
  created_at: string;
}

export interface CheckoutSession {
  id: string;
  /** Where the browser goes to pay. */
  url: string;
  status: 'open' | 'complete' | 'expired';
}

export interface SubscriptionCreate {
  plan_type: PlanKey;
  cancel_url: string;
  success_url: string;
}

/** Subscription state (spec: response shape not shown). */
export interface Subscription {
  plan_type: PlanKey;
  status: 'none' | 'active' | 'canceled' | 'past_due';
  cancel_at_period_end: boolean;
  current_period_end: string | null;
  /** Set by subscription/create: where the browser goes to confirm the plan. */
  checkout_url?: string | null;
}

/** Hosting information (spec: result fields not shown). */
export interface HostingInformation {
  hosted_model_id: string;
  model_id: string;
  /** `waiting_for_runner`: a container deployment no GPU runner has taken yet (docs/publishing.md). */
  status: 'deploying' | 'running' | 'scaled_to_zero' | 'failed' | 'stopped' | 'waiting_for_runner';
  gpu: string;
  min_instances: number;
  max_instances: number;
  /** The job API's create URL: POST `{ service_id, endpoint, input }` there to run the service (docs/jobs.md). */
  endpoint_url: string;
  updated_at: string;
}

// ---- Jobs (docs/jobs.md): one run of a service endpoint, queued and metered by the server.

/** Job statuses in lifecycle order; the last four are final. */
export const JOB_STATUSES = ['QUEUED', 'PROCESSING', 'FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'];

/** One bad input field: which, which rule it broke, and a sentence for the user. */
export interface FieldError {
  /** Parameter name, e.g. `prompt`, or `messages.0` inside an array. */
  name: string;
  /** The broken rule: required, type, minimum, maximum, enum, step, unknown, file, size, … */
  rule: string;
  message: string;
}

/** A stored file: what `POST /v1/files` answers and how media appear in results. */
export interface FileRef {
  url: string;
  content_type: string;
  size: number;
}

export interface JobError {
  /** Machine-readable, e.g. `timeout`, `worker_lost`, `runtime_error`, `cancelled`. */
  code: string;
  message: string;
}

export interface JobMetrics {
  /** Time between creation and start. */
  queue_ms: number | null;
  /** Time between start and end. */
  run_ms: number | null;
  /** Billed GPU time: run time in seconds. */
  gpu_seconds: number | null;
  /** Credits charged for the run (0 when it did not finish). */
  cost_credits: number | null;
}

/** The job envelope: the same shape from create, get, list, the stream and webhooks. */
export interface Job {
  job_id: string;
  service_id: string;
  /** The endpoint's path, e.g. `/generate`. */
  endpoint: string;
  status: JobStatus;
  /** 0..1 */
  progress: number;
  message: string | null;
  input: Record<string, unknown>;
  /**
   * The output once FINISHED (media as `FileRef`). While PROCESSING a streaming endpoint's text
   * so far, as `{ text }`.
   */
  result: unknown;
  error: JobError | null;
  /** What computes it, e.g. `local-demo` (a demonstration, not the real model) or `http`. */
  runtime: string | null;
  /** Set while QUEUED: how many of the caller's and others' jobs run first (0 = next). */
  queue: { position: number } | null;
  metrics: JobMetrics;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Result and media stay readable until then (docs/jobs.md: retention). */
  output_expires_at: string | null;
  links: { self: string; cancel: string; stream: string };
}

export interface JobCreate {
  service_id: string;
  /** Endpoint path; may be omitted when the service has exactly one endpoint. */
  endpoint?: string;
  input: Record<string, unknown>;
  /** Called with the envelope when the job ends, signed with Standard Webhooks headers. */
  webhook?: string;
}

export interface JobList {
  jobs: Job[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** What a run of an endpoint probably costs (see `estimateRun` in `@limelight/widgets/run`). */
export interface JobEstimateData {
  service_id: string;
  endpoint: string;
  gpu: string;
  price_per_s_usd: number;
  /** Run times in seconds of the latest finished runs of this endpoint, newest first. */
  recent_run_seconds: number[];
}

// ---- Publishing (docs/publishing.md): services their owners create and host.

export type ServiceVisibility = 'public' | 'private';
export type ServiceStatus = 'active' | 'paused';

/** How a service runs, as its owner configures it. Secrets are write-only. */
export type ServiceRuntimeInput =
  | {
      type: 'http';
      /** The service's own base URL; endpoint paths are appended. */
      base_url: string;
      /** Extra request headers (e.g. a shared secret), stored encrypted; never returned. */
      headers?: Record<string, string>;
    }
  | {
      type: 'container';
      /** Image reference, e.g. `docker.io/me/sketch:1.2`. */
      image: string;
      /** One of the caller's registry credentials, for private images. */
      registry_credential_id?: string | null;
      /** A pricing server id (the GPU type). */
      gpu: string;
      min_instances: number;
      max_instances: number;
      idle_timeout_s: number;
    };

/** The stored runtime: header values are replaced by their names. */
export type ServiceRuntime =
  | { type: 'local-demo' }
  | { type: 'http'; base_url: string; header_names: string[] }
  | (Omit<Extract<ServiceRuntimeInput, { type: 'container' }>, 'registry_credential_id'> & {
      registry_credential_id: string | null;
      /** No GPU fleet is attached locally: a deployment waits for a runner (docs/publishing.md). */
      deployment_status: 'waiting_for_runner' | 'running' | 'failed';
    });

export interface HealthCheck {
  status: 'ok' | 'failing' | 'unreachable' | 'waiting_for_runner';
  /** Round-trip time of the check, when the service answered. */
  latency_ms: number | null;
  checked_at: string;
  detail: string;
}

/** What the owner creates or changes; every field is optional on PATCH. */
export interface ServiceInput {
  display_name: string;
  /** HTML; sanitised on the server and again on display. */
  model_desc?: string | null;
  model_category?: string[];
  used_models?: string[];
  visibility?: ServiceVisibility;
  status?: ServiceStatus;
  endpoints?: ServiceEndpoint[];
  runtime?: ServiceRuntimeInput | null;
}

/** A service as its owner manages it. */
export interface ManagedService {
  id: string;
  display_name: string;
  model_desc: string | null;
  display_img_url: string | null;
  model_category: string[];
  used_models: string[];
  visibility: ServiceVisibility;
  status: ServiceStatus;
  endpoints: ServiceEndpoint[];
  runtime: ServiceRuntime;
  health: HealthCheck | null;
  n_usages: number;
  /** Credits earned from other users' runs (public services). */
  earnings_credits: number;
  created_at: string;
  updated_at: string;
}

export interface OpenApiImport {
  endpoints: ServiceEndpoint[];
  /** Constructs of the document that were not imported, one sentence each. */
  unsupported: string[];
}
