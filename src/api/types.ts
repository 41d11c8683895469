import type { Job } from '@limelight/client/types';
import type { components } from './generated/openapi';

/** The server's wire shapes (src/api/generated/openapi.ts, from /v1/openapi.json). */
type Wire = components['schemas'];
// Entity shapes of product-rules §3, shared by the clients and the local platform server.
// Fields the spec leaves "not shown" are designed here and documented where they appear.

/** Domains of product-rules §3, in display order (product-rules §9). */
export const DOMAINS = ['TEXT', 'AUDIO', 'IMAGE', 'VIDEO', 'ANIMATION', 'MISC'] as const;
export type Domain = (typeof DOMAINS)[number];

/** Model providers (product-rules §3: the product's own and one third-party model host). */
export const MODEL_PROVIDERS = ['limelight', 'replicate'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** A catalogue category: its title and the input and output domains it covers. */
export type ModelCategory = Wire['ModelCategory'];

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
/** The media type of an endpoint's result, one of `OUTPUT_TYPES`. */
export type OutputType = (typeof OUTPUT_TYPES)[number];

/** What an endpoint returns: its media type, and whether text streams before the job ends. */
export interface EndpointOutput {
  type: OutputType;
  /** True when the result arrives as streamed text before the job ends (chat). */
  streaming?: boolean;
}

/** One callable endpoint of a service: its path, parameters and output. */
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
  example?: {
    input?: Record<string, unknown>;
    result: unknown;
    /** How long the example's run took, seconds: the price of a run is shown from it before any run. */
    run_seconds?: number;
    /** The runtime that made it (`local`, `local-demo`...): a demo's output is labelled as one. */
    runtime?: string;
  };
}

/** A service as the catalogue lists it: names, description, domains, categories, runs, endpoints and pricing. */
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
  /**
   * Container services only: `ready` (running, or scaled to zero and started by the next run),
   * `starting` (deploying) or `unavailable` (failed, stopped, or no runner). Absent for runtimes
   * that are always up.
   */
  deployment?: 'ready' | 'starting' | 'unavailable';
  /** What runs it, from the runtime that serves it: `demo` (free, placeholder output), `cpu` (priced per CPU-second) or `gpu`. */
  hardware?: 'demo' | 'cpu' | 'gpu';
  /** True when it runs on the demo runtime: its outputs are placeholders and its runs are free. */
  demo?: boolean;
  /** Why it is a demo, shown by the Demo badge. */
  demo_reason?: string;
}

/** A GPU server type with its price per second, for the pricing calculator and run estimates. */
export type PricingServer = Wire['PricingServer'];

/** Model pricing table (product-rules §3: fields not shown): price per request or per second by model. */
export type ModelPricingRow = Wire['ModelPricingRow'];

export type PlanKey = 'free' | 'plus' | 'pro' | 'enterprise';

/** A plan as the plan cards show it: title, features, currency, badge and whether it is the user's active plan. */
export type Plan = Wire['Plan'];

/** A newsletter the user can subscribe to: its id, description and display text. */
export type SubscriptionOption = Wire['SubscriptionOption'];

/** The body of a newsletter subscription or unsubscription. */
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

/** The body of a support request: topic, subject, message and optional attachments. */
export interface SupportPayload {
  topic: string;
  subject: string;
  message: string;
  attachments?: SupportAttachment[];
}

/** The signed-in user's profile as stored. */
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
export type ProfileResult = Wire['Profile'];

/** The profile fields a user may change (everything but id, email, creation date and terms). */
export type ProfileUpdate = Partial<Omit<UserProfile, 'id' | 'email' | 'dt_created' | 'terms_accepted'>>;

/** A platform API key as listed (its prefix, never the full secret). */
export type ApiKey = Wire['ApiKey'];

/** Returned once by create_api_key: the only time the full secret is visible. */
export type CreatedApiKey = Wire['CreatedApiKey'];

/** A stored container registry credential (e.g. a Docker Hub token), without its secret. */
export type RegistryCredential = Wire['RegistryCredential'];

/** The body that stores or replaces a container registry access token (platform, username, alias, token). */
export interface UpsertPatPayload {
  foreign_username: string;
  credential_alias: string;
  pat: string;
  platform?: 'dockerhub' | 'registry';
  /** host[:port]; default docker.io. Used only to pull the image. */
  registry?: string;
}

/** The user's API calls per month. */
export type UsageStatistics = Wire['UsageStatistics'];

/** The signed-in user's credit balance. */
export type Balance = Wire['Balance'];

/** One entry of the user's credit ledger (sign-up bonus, purchase, usage, payout, earning). */
export type Transaction = Wire['Transaction'];

/** A payment checkout session: its id, status and the URL to send the user to. */
export type CheckoutSession = Wire['CheckoutSession'];

/** The body that starts a plan subscription. */
export type SubscriptionCreate = Wire['SubscriptionCreate'];

/** A settled payment or plan change (amount in cents; negative for a refund). */
export type Receipt = Wire['Receipt'];

/** One checkout as the return page after paying reads it. */
export type CheckoutDetail = Wire['CheckoutDetail'];

/** Subscription state (spec: response shape not shown). */
export type Subscription = Wire['Subscription'];

/** Hosting information (spec: result fields not shown). */
export type HostingInformation = Wire['HostingInformation'];

/** A line of a container deployment's log, as its owner reads it in HostingInformation. */
export type DeploymentLogLine = Wire['DeploymentLogLine'];

/** A line a job's container wrote while the job ran (GET /v1/jobs/{id} `logs`, the stream's `log` events). */
export type JobLogLine = Wire['JobLogLine'];

// ---- Jobs (docs/jobs.md): one run of a service endpoint, queued and metered by the server.

// Statuses and limits are the platform's rules (one definition, @limelight/rules).
export { FINAL_JOB_STATUSES, JOB_STATUSES, type JobStatus } from '@limelight/rules';

/** One bad input field: which, which rule it broke, and a sentence for the user. */
export type FieldError = Wire['FieldError'];

/** A stored file: what `POST /v1/files` answers and how media appear in results. */
export type FileRef = Wire['FileRef'];

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
  /** Part of the start spent starting the runtime (a cold container); 0 for runtimes that are always up. */
  cold_start_ms?: number | null;
  /**
   * Container jobs: where the instance came from: a memory snapshot, the paused or created pool,
   * the image, or `warm` (already running); null for other runtimes.
   */
  cold_start_tier?: 'snapshot' | 'paused' | 'created' | 'image' | 'warm' | null;
  /** Billed GPU time: run time in seconds. */
  gpu_seconds: number | null;
  /** Credits charged for the run (0 when it did not finish). */
  cost_credits: number | null;
}

/**
 * The job envelope: the same shape from create, get, list, the stream and webhooks. The SDK's
 * (one definition, packages/client/src/types.ts), checked against the wire contract
 * (test/unit/foundation/wire-job.test.ts, by the type check).
 */
export type { Job };

/** The body that creates a job: the service, the endpoint and its input. */
export type JobCreate = Wire['JobCreate'];

export type JobList = Omit<Wire['JobList'], 'jobs'> & { jobs: Job[] };

/** What a run of an endpoint probably costs (see `estimateRun` in `@limelight/widgets/run`). */
export type JobEstimateData = Wire['JobEstimateData'];

// ---- Publishing (docs/publishing.md): services their owners create and host.

/** Who sees a published service: everyone (`public`) or only its publisher (`private`). */
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
      /** What the owner's health check asks under the base URL (default `/openapi.json`). */
      health_path?: string;
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
      /** The port the image serves HTTP on (1–65535, default 8080). */
      port?: number;
      /** The path that gates traffic: starts with `/` (default `/openapi.json`). */
      health_path?: string;
      /** Jobs one instance takes at once (1–64, default 1). */
      concurrency?: number;
    };

/** The stored runtime: header values are replaced by their names. */
export type ServiceRuntime =
  | { type: 'local-demo' }
  | {
      type: 'http';
      base_url: string;
      header_names: string[];
      /** Under the base URL (default `/openapi.json`). */
      health_path: string;
    }
  | (Omit<Extract<ServiceRuntimeInput, { type: 'container' }>, 'registry_credential_id' | 'port' | 'health_path' | 'concurrency'> & {
      registry_credential_id: string | null;
      port: number;
      health_path: string;
      concurrency: number;
      /**
       * `waiting_for_runner` (no runner attached), `deploying` (pulling, first instance starting),
       * `running` (also scaled to zero) or `failed`; model_hosting_information says more (docs/publishing.md).
       */
      deployment_status: 'waiting_for_runner' | 'deploying' | 'running' | 'failed';
    });

/** The result of checking a published service's health endpoint. */
export type HealthCheck = Wire['HealthCheck'];

/** What the owner creates or changes; every field is optional on PATCH. */
export type ServiceInput = Wire['ServiceInput'];

/** A service as its owner manages it. */
export type ManagedService = Omit<Wire['ManagedService'], 'endpoints' | 'runtime'> & {
  // The document describes these two loosely (any JSON); their shapes are the catalogue's.
  endpoints: ServiceEndpoint[];
  runtime: ServiceRuntime;
};

export type OpenApiImport = Omit<Wire['OpenApiImport'], 'endpoints'> & { endpoints: ServiceEndpoint[] };
