// @limelight/widgets/api: the platform API clients, their result type and the payload types.
// No React here (docs/architecture.md, "The client layer"): the hooks live in the root entry.
export { MODEL_PROVIDERS, OUTPUT_TYPES, JOB_STATUSES, FINAL_JOB_STATUSES } from './types';
export type {
  ModelCategory,
  EndpointParameter,
  ServiceEndpoint,
  ModelDescriptor,
  PricingServer,
  ModelPricingRow,
  Plan,
  SubscriptionOption,
  NewsletterPayload,
  SupportPayload,
  UserProfile,
  ProfileResult,
  ProfileUpdate,
  ApiKey,
  CreatedApiKey,
  RegistryCredential,
  UpsertPatPayload,
  UsageStatistics,
  Balance,
  Transaction,
  CheckoutSession,
  SubscriptionCreate,
  Subscription,
  DeploymentLogLine,
  Receipt,
  CheckoutDetail,
  HostingInformation,
  JobLogLine,
  OutputType,
  EndpointOutput,
  JobStatus,
  FieldError,
  FileRef,
  Job,
  JobCreate,
  ServiceVisibility,
  ServiceRuntimeInput,
  ServiceRuntime,
  HealthCheck,
  ServiceInput,
  ManagedService,
} from './types';
export { TOKENS_MISSING_ERROR } from './result';
export type { ApiFailure, ApiResult } from './result';
export { ApiError } from './errors';
export { unwrap } from './http';
export type { ClientOptions } from './http';
export type { TokenSourceOptions, AccessTokenGetter, SessionTokens } from './token';
export { createModelManagementClient } from './modelManagement';
export type { ModelManagementClient } from './modelManagement';
export { createProfileClient, API_KEY_DEFAULT_LIFETIME_DAYS } from './profile';
export type { ProfileClient } from './profile';
export { createPaymentClient } from './payment';
export type { PaymentClient } from './payment';
export { createSupportClient } from './support';
export type { SupportClient } from './support';
export { createJobsClient, MAX_PREFER_WAIT_S } from './jobs';
// One name per re-export, each with its doc here: src/api/jobs.ts is being swapped for
// @limelight/client's jobs client, whose declarations these may become.
/** The jobs API client (`/v1/jobs/`): create, read, list, estimate and cancel jobs, upload input files, follow a job over SSE. */
export type { JobsClient } from './jobs';
/** Options of `JobsClient.create`: wait for the end (up to 60 s), an idempotency key, an abort signal. */
export type { CreateJobOptions } from './jobs';
/** The query of `JobsClient.list`: one service's jobs, a page size, the cursor of the next page. */
export type { ListJobsQuery } from './jobs';
/** A running `JobsClient.subscribe`: close it, or await its last envelope. */
export type { JobSubscription } from './jobs';
/** Options of `JobsClient.subscribe`: the callbacks for each update and for failures, and where to resume. */
export type { SubscribeOptions } from './jobs';
export { createServicesClient } from './services';
export { CONTAINER_RUNTIME_DEFAULTS, SERVICE_INPUT_RULES } from './serviceRules';
export type { ServicesClient } from './services';
export { createPlatformClients } from './clients';
export type { PlatformClients, PlatformClientOptions } from './clients';
