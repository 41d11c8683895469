import type { Selectable } from 'kysely';
import type { Job, JobStatus } from '@limelight/widgets/api';
import { FINAL_JOB_STATUSES } from '@limelight/rules';
import type { JobsTable } from '../db/types';

// A job row as the API shows it: the envelope of docs/jobs.md, the same everywhere (create, get,
// list, stream, webhook).

export type JobRow = Selectable<JobsTable>;

export const isFinalStatus = (status: string) => FINAL_JOB_STATUSES.includes(status as JobStatus);

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);
const msBetween = (from: Date | null, to: Date | null) => (from && to ? new Date(to).getTime() - new Date(from).getTime() : null);

export function envelopeOf(row: JobRow, publicUrl: string, queuePosition: number | null = null): Job {
  const self = `${publicUrl}/v1/jobs/${row.id}`;
  return {
    job_id: row.id,
    service_id: row.service_id,
    endpoint: row.endpoint,
    status: row.status as JobStatus,
    progress: row.status === 'FINISHED' ? 1 : Number(row.progress),
    message: row.message,
    input: row.input,
    result: row.result ?? null,
    error: row.error ?? null,
    runtime: row.runtime,
    queue: row.status === 'QUEUED' ? { position: queuePosition ?? 0 } : null,
    metrics: {
      queue_ms: msBetween(row.created_at, row.started_at),
      run_ms: msBetween(row.started_at, row.finished_at),
      // The local and HTTP runtimes are always up (0); a container job records the cold start
      // it waited for (hosting/containerHosting.ts), 0 on a warm instance.
      cold_start_ms: row.started_at ? (row.cold_start_ms ?? 0) : null,
      // Container jobs only: which tier the start came from (docs/deploy.md, "Snapshot cold starts").
      cold_start_tier: row.started_at ? ((row.cold_start_tier as NonNullable<Job['metrics']['cold_start_tier']> | null) ?? null) : null,
      gpu_seconds: row.gpu_seconds === null ? null : Number(row.gpu_seconds),
      cost_credits: row.cost_credits === null ? null : Number(row.cost_credits),
    },
    created_at: iso(row.created_at)!,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    output_expires_at: iso(row.output_expires_at),
    links: { self, cancel: `${self}/cancel`, stream: `${self}/stream` },
  };
}
