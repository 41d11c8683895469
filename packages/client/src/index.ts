// @limelight/client: run Limelight's hosted services from any fetch runtime (docs/sdk.md).
export { createClient } from './client.ts';
export type { ClientOptions, LimelightClient, ListOptions, RunOptions, StreamOptions, SubmitOptions, UploadOptions } from './client.ts';
export { ApiError, ConnectionError, JobFailedError, JobWaitError, LimelightError, WebhookVerificationError } from './errors.ts';
export { filePath, isFileInput, OutputFile, toBlob } from './files.ts';
export type { FileInput, FilePath } from './files.ts';
export { backoffMs, retryAfterMs, RETRY_STATUSES } from './http.ts';
export type { RetryOptions } from './http.ts';
export { FINAL_JOB_STATUSES, isFinalStatus, JOB_STATUSES, MAX_PREFER_WAIT_S, WEBHOOK_EVENT_TYPES } from './types.ts';
export type {
  EndpointOf,
  FieldError,
  FileRef,
  InputOf,
  Job,
  JobEstimate,
  JobEvent,
  JobLogLine,
  JobPage,
  JobStatus,
  OutputOf,
  ServiceTypes,
  WebhookEventType,
} from './types.ts';
export { sign as signWebhook, verify as verifyWebhook, webhooks } from './webhooks.ts';
export type { VerifyOptions, WebhookEvent, WebhookHeaders } from './webhooks.ts';
