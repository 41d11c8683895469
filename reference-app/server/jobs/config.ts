import { ConfigError } from '../config';

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

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
}

export function loadJobsConfig(env: Env): JobsConfig {
  return {
    workerSlots: integer(env, 'JOB_WORKER_SLOTS', 4, 0),
    leaseSeconds: integer(env, 'JOB_LEASE_SECONDS', 30, 2),
    pollMs: integer(env, 'JOB_POLL_MS', 1000, 10),
    defaultTimeLimitSeconds: integer(env, 'JOB_TIME_LIMIT_SECONDS', 120, 1),
    retentionHours: integer(env, 'JOB_RETENTION_HOURS', 24 * 7, 1),
    maxUploadBytes: integer(env, 'JOB_MAX_UPLOAD_BYTES', 25 * 1024 * 1024, 1),
    webhookAllowPrivate: flag(env, 'JOB_WEBHOOK_ALLOW_PRIVATE', false),
    ioSlots: integer(env, 'JOB_IO_SLOTS', 16, 0),
    maxRunningPerService: integer(env, 'JOB_MAX_RUNNING_PER_SERVICE', 8, 1),
    maxRunningPerPublisher: integer(env, 'JOB_MAX_RUNNING_PER_PUBLISHER', 16, 1),
    resultInlineBytes: integer(env, 'JOB_RESULT_INLINE_BYTES', 256 * 1024, 1024),
    maxResultBytes: integer(env, 'JOB_MAX_RESULT_BYTES', 64 * 1024 * 1024, 1024),
    webhookConcurrency: integer(env, 'JOB_WEBHOOK_CONCURRENCY', 8, 1),
    maxPendingWebhooks: integer(env, 'JOB_MAX_PENDING_WEBHOOKS', 100, 1),
  };
}
