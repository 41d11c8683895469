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
  };
}
