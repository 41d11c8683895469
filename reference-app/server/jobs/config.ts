import { bool, int, type Env } from '../config/env';
import type { OwnAddress } from '../runtimes/http/urlPolicy';

// Job queue settings from the environment (documented in docs/jobs.md and the server README).

export interface JobsConfig {
  /** Jobs one server process runs at once (0: this process only serves the API). */
  workerSlots: number;
  /** A claimed job's lease; a worker renews it every third of it while the job runs. */
  leaseSeconds: number;
  /** How often an idle worker looks for work when no notification arrives. */
  pollMs: number;
  /** Default per-endpoint time limit when the endpoint names none. */
  defaultTimeLimitSeconds: number;
  /** How long results and stored files stay readable after a job ends. */
  retentionHours: number;
  /** Largest upload through POST /v1/files, bytes. */
  maxUploadBytes: number;
  /** Allow webhooks to loopback and private addresses (development and tests only). */
  webhookAllowPrivate: boolean;
  /**
   * The platform's own address as it really listens (its port, the engine's TCP API): refused as a
   * webhook in every mode. Set by loadConfig; without it, the public URL's origin and port only.
   */
  webhookOwn?: OwnAddress;
  /** Jobs of I/O-bound runtimes (HTTP) one process runs at once, apart from `workerSlots`. */
  ioSlots: number;
  /** Jobs of one service running at once, over all processes. */
  maxRunningPerService: number;
  /** Jobs of one publisher's services running at once, over all processes. */
  maxRunningPerPublisher: number;
  /** Results above this size are stored as a file; the result then holds its URL. */
  resultInlineBytes: number;
  /** Results above this size fail the job (`result_too_large`). */
  maxResultBytes: number;
  /** Webhook deliveries one process sends at once (their own loop, apart from the claims). */
  webhookConcurrency: number;
  /** Pending webhook deliveries a user may have before new jobs with a webhook are refused. */
  maxPendingWebhooks: number;
}

export function loadJobsConfig(env: Env): JobsConfig {
  return {
    workerSlots: int(env, 'JOB_WORKER_SLOTS', 4, { min: 0 }),
    leaseSeconds: int(env, 'JOB_LEASE_SECONDS', 30, { min: 2, unit: 'seconds' }),
    pollMs: int(env, 'JOB_POLL_MS', 1000, { min: 10, unit: 'milliseconds' }),
    defaultTimeLimitSeconds: int(env, 'JOB_TIME_LIMIT_SECONDS', 120, { min: 1, unit: 'seconds' }),
    retentionHours: int(env, 'JOB_RETENTION_HOURS', 24 * 7, { min: 1, unit: 'hours' }),
    maxUploadBytes: int(env, 'JOB_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, { min: 1, unit: 'bytes' }),
    webhookAllowPrivate: bool(env, 'JOB_WEBHOOK_ALLOW_PRIVATE', false),
    ioSlots: int(env, 'JOB_IO_SLOTS', 16, { min: 0 }),
    maxRunningPerService: int(env, 'JOB_MAX_RUNNING_PER_SERVICE', 8, { min: 1 }),
    maxRunningPerPublisher: int(env, 'JOB_MAX_RUNNING_PER_PUBLISHER', 16, { min: 1 }),
    resultInlineBytes: int(env, 'JOB_RESULT_INLINE_BYTES', 256 * 1024, { min: 1024, unit: 'bytes' }),
    maxResultBytes: int(env, 'JOB_MAX_RESULT_BYTES', 64 * 1024 * 1024, { min: 1024, unit: 'bytes' }),
    webhookConcurrency: int(env, 'JOB_WEBHOOK_CONCURRENCY', 8, { min: 1 }),
    maxPendingWebhooks: int(env, 'JOB_MAX_PENDING_WEBHOOKS', 100, { min: 1 }),
  };
}
