// @limelight/widgets/api: the platform API clients, their result type and the payload types.
// No React here (docs/architecture.md, "The client layer"): the hooks live in the root entry.
export { DOMAINS, MODEL_PROVIDERS, OUTPUT_TYPES, JOB_STATUSES, FINAL_JOB_STATUSES } from './types';
export type {
  Domain,
  ModelProvider,
  ModelCategory,
  EndpointParameter,
  ServiceEndpoint,
  ModelDescriptor,
  PricingServer,
  ModelPricingRow,
  PlanKey,
  Plan,
  SubscriptionOption,
  NewsletterPayload,
  SupportAttachment,
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
  Receipt,
  CheckoutDetail,
  HostingInformation,
  OutputType,
  EndpointOutput,
  JobStatus,
  FieldError,
  FileRef,
  JobError,
  JobMetrics,
  Job,
  JobCreate,
  JobList,
  JobEstimateData,
  ServiceVisibility,
  ServiceStatus,
  ServiceRuntimeInput,
  ServiceRuntime,
  HealthCheck,
  ServiceInput,
  ManagedService,
  OpenApiImport,
} from './types';
export { OFFLINE_ERROR, INTERNAL_ERROR, TOKENS_MISSING_ERROR, detailOf, fieldErrorsOf } from './result';
export type { ApiSuccess, ApiFailure, ApiResult } from './result';
export { ApiError } from './errors';
export { createApiClient, unwrap, toFailure } from './http';
export type { ApiClient, ApiClientOptions, ClientOptions, AuthMode, RequestOptions, StreamOptions, ServerSentEvent } from './http';
export { createTokenSource } from './token';
export type { TokenSource, TokenSourceOptions, AccessTokenGetter, SessionTokens } from './token';
export { createModelManagementClient, keepThirdPartyPricingServers } from './modelManagement';
export type { ModelManagementClient, HostingLookup } from './modelManagement';
export { createProfileClient, API_KEY_DEFAULT_LIFETIME_DAYS } from './profile';
export type { ProfileClient } from './profile';
export { createPaymentClient } from './payment';
export type { PaymentClient } from './payment';
export { createSupportClient } from './support';
export type { SupportClient } from './support';
export { createJobsClient, JOBS_PREFIX, MAX_PREFER_WAIT_S } from './jobs';
export type { JobsClient, CreateJobOptions, ListJobsQuery, JobSubscription, SubscribeOptions } from './jobs';
export { createServicesClient, SERVICES_PREFIX, PRIVATE_SERVICE_LIMITS } from './services';
export { SERVICE_INPUT_RULES } from './serviceRules';
export type { ServicesClient } from './services';
export { createPlatformClients } from './clients';
export type { PlatformClients, PlatformClientOptions } from './clients';
export { messageForStatus, NOT_FOUND_AUTO_CLEAR_MS } from './statusMessages';
export type { StatusMessage, Presentation } from './statusMessages';
