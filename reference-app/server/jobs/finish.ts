import { creditsForRun } from '@limelight/rules';
import { monthKey } from '../api/months';
import type { Db } from '../db/types';
import { hardwareOf } from '../hosting/runtimeRegistry';
import type { JobRow } from './envelope';
import type { JobEvents } from './events';
import { finishJobRows, type FinishValues } from './sql/finishJobs';

// Ending a job: the status, the charge settled against the job's hold, the publisher's share,
// the usage counters and the webhook delivery, all in ONE statement (docs/jobs.md: metering). If
// it fails nothing is written and the lease expiry hands the job to recovery.

export type FinalStatus = 'FINISHED' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';

export interface Outcome {
  status: FinalStatus;
  result?: unknown;
  error?: { code: string; message: string } | null;
  message?: string | null;
}

/**
 * Failures of the platform itself: never charged. Every other failure (the runtime's own error,
 * a bad file, a result too large) held a slot and is charged for it (docs/jobs.md: charging).
 */
export const PLATFORM_FAILURES: readonly string[] = ['no_runtime', 'worker_lost', 'stopped'];

/**
 * The runtime refused the input before computing anything (runtimes/local/inputs.ts): nothing
 * ran, so nothing is charged. Only the platform's own runtimes raise it; a container's refusal
 * comes back as its runtime_error and is charged like any other failure.
 */
export const REFUSED_INPUT = 'invalid_input';

/** A charged failure costs at least this many seconds, so failing fast is not free slot time. */
export const MIN_FAILED_SECONDS = 1;

/** A run that used the GPU never costs 0, even when it ended within the clock's millisecond. */
const MIN_RUN_SECONDS = 0.001;

/** The seconds a run is charged for, or undefined when it is not charged. */
export function chargedSeconds(outcome: Outcome, runSeconds: number): number | undefined {
  if (outcome.status !== 'FAILED') return Math.max(runSeconds, MIN_RUN_SECONDS);
  const code = outcome.error?.code ?? '';
  if (PLATFORM_FAILURES.includes(code) || code === REFUSED_INPUT) return undefined;
  return Math.max(runSeconds, MIN_FAILED_SECONDS);
}

/** What ending `job` with `outcome` writes: the status, result, charge (capped at the hold) and counters. */
export function finishValues(
  job: JobRow,
  outcome: Outcome,
  retentionHours: number,
  result: { json: string | null; bytes: number | null } = serialiseResult(outcome.result),
): FinishValues {
  const now = new Date();
  const runSeconds = job.started_at ? Math.max(0, (now.getTime() - new Date(job.started_at).getTime()) / 1000) : 0;
  const seconds = job.started_at ? chargedSeconds(outcome, runSeconds) : undefined;
  // Never more than what was held when the job was accepted (an estimate cannot be gamed).
  // A demo run is free whatever was held (pricing.ts): its output is a placeholder.
  const demo = hardwareOf(job.runtime) === 'demo';
  const cost = seconds === undefined || demo ? 0 : Math.min(creditsForRun(seconds, Number(job.price_per_s_usd)), Number(job.hold_credits));
  return {
    job,
    status: outcome.status,
    resultJson: result.json,
    resultBytes: result.bytes,
    error: outcome.error ?? null,
    message: outcome.message ?? null,
    finishedAt: now,
    expiresAt: new Date(now.getTime() + retentionHours * 3600_000),
    gpuSeconds: seconds === undefined ? null : seconds,
    costCredits: cost,
    counted: seconds !== undefined,
    month: monthKey(now),
    usageDescription: usageDescription(job, runSeconds),
  };
}

/**
 * The ledger's line for a run (the transactions list shows it): the seconds it was charged for
 * and on what, "CPU seconds" for a local model, "GPU seconds" otherwise; a demo run says it was
 * free (its charge is 0, so no ledger row is written for it, payments/queries.ts).
 */
export function usageDescription(job: Pick<JobRow, 'service_id' | 'endpoint' | 'runtime'>, runSeconds: number): string {
  const hardware = hardwareOf(job.runtime);
  if (hardware === 'demo') return `Demo run of ${job.service_id} ${job.endpoint}: free`;
  return `Run of ${job.service_id} ${job.endpoint}: ${runSeconds.toFixed(2)} ${hardware === 'cpu' ? 'CPU' : 'GPU'} seconds`;
}

/**
 * Ends jobs of one worker together (one statement, see finishJobRows); answers each job's ended
 * row, or undefined for a job that is no longer the worker's.
 */
export async function finishJobs(db: Db, events: JobEvents, workerId: string, ends: readonly FinishValues[]) {
  const rows = await finishJobRows(db, events, workerId, ends);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ends.map((end) => byId.get(end.job.id));
}

export function serialiseResult(result: unknown): { json: string | null; bytes: number | null } {
  if (result === undefined || result === null) return { json: null, bytes: null };
  const json = JSON.stringify(result);
  return { json, bytes: Buffer.byteLength(json) };
}

/**
 * PostgreSQL stores no U+0000 in jsonb or text: a service's text loses it (messages, errors),
 * and a result holding one cannot be stored at all (hasNul; the job fails as service_error).
 */
export const withoutNul = (text: string): string => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

/** Whether serialised JSON escapes a U+0000 (`\u0000` after an even run of backslashes). */
export const hasNul = (json: string): boolean => json.includes('\\u0000') && /(?:^|[^\\])(?:\\\\)*\\u0000/.test(json);
