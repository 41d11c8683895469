// The job API's shapes (docs/jobs.md) and the per-service type map that `limelight-types`
// fills in (docs/sdk.md, "Types per service").

// The job API's statuses and limits are the platform's rules (@limelight/rules, inlined by the
// build: docs/architecture.md, "Where the rules live"); the client ships them as its own, and
// the widgets and the server import them from @limelight/rules too.
export { FINAL_JOB_STATUSES, isFinalStatus, JOB_STATUSES, MAX_PREFER_WAIT_S } from '@limelight/rules';
import type { JobStatus } from '@limelight/rules';
export type { JobStatus };

/** A stored file as the API sends it: file inputs take its `url`; media outputs are FileRefs. */
export interface FileRef {
  url: string;
  content_type: string;
  size: number;
}

/** One bad field of a 422. */
export interface FieldError {
  name: string;
  rule: string;
  message: string;
}

/** The job envelope. */
export interface Job<Input = Record<string, unknown>, Result = unknown> {
  job_id: string;
  service_id: string;
  endpoint: string;
  status: JobStatus;
  progress: number;
  message: string | null;
  input: Input;
  /** The output once FINISHED (media as FileRef); while a streaming endpoint runs, `{ text }` so far. */
  result: Result | null;
  error: { code: string; message: string } | null;
  runtime: string | null;
  queue: { position: number } | null;
  metrics: {
    queue_ms: number | null;
    run_ms: number | null;
    /** Part of the start spent starting the runtime (a cold container); 0 when it was up. */
    cold_start_ms?: number | null;
    /** Container jobs: where the instance came from (`snapshot`, `paused`, `created`, `image`, `warm`); null otherwise. */
    cold_start_tier?: 'snapshot' | 'paused' | 'created' | 'image' | 'warm' | null;
    gpu_seconds: number | null;
    cost_credits: number | null;
  };
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  output_expires_at: string | null;
  links: { self: string; cancel: string; stream: string };
  /** `get` only: the lines the job's container wrote while it ran, oldest first (none for other runtimes). */
  logs?: JobLogLine[];
}

/** A line a job's container wrote: in `Job.logs` and as the stream's `log` events. */
export interface JobLogLine {
  /** When it was written (ISO 8601). */
  at: string;
  stream: 'stdout' | 'stderr';
  text: string;
}

/** What a run of an endpoint probably costs: the GPU's price and the endpoint's recent run times. */
export interface JobEstimate {
  service_id: string;
  endpoint: string;
  /** What prices the run: the GPU's name, "CPU" or "Demo". */
  gpu: string;
  /** `demo`: the demo runtime, free; `cpu`: priced per CPU-second (the CPU tier); `gpu`: per GPU-second. */
  hardware: 'demo' | 'cpu' | 'gpu';
  price_per_s_usd: number;
  recent_run_seconds: number[];
}

/** What a job's webhook may be sent for (`webhookEventsFilter`; docs/jobs.md, "Webhooks"). */
export const WEBHOOK_EVENT_TYPES = ['start', 'output', 'logs', 'completed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface JobPage {
  jobs: Job[];
  next_cursor: string | null;
}

/** One server-sent event of a job's stream; `id` is the version to resume after. */
export interface JobEvent<J extends Job = Job> {
  type: 'job';
  id: string | null;
  job: J;
}

/**
 * Services' endpoint types, filled by the file `npx limelight-types … --out limelight.d.ts`
 * writes (module augmentation):
 *
 *   interface ServiceTypes { 'lime-diffusion-xl': { '/generate': { input: {...}; output: {...} } } }
 *
 * Ids that are not in it are untyped (input Record<string, unknown>, output unknown).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ServiceTypes {}

interface EndpointTypes {
  input: object;
  output: unknown;
}

type Known<S> = S extends keyof ServiceTypes ? (ServiceTypes[S] extends Record<string, EndpointTypes> ? true : false) : false;

/** Endpoint paths of a typed service; any string for an untyped one. */
export type EndpointOf<S extends string> = Known<S> extends true ? Extract<keyof ServiceTypes[S & keyof ServiceTypes], string> : string;

type Entry<S extends string, E> =
  Known<S> extends true ? (E extends keyof ServiceTypes[S & keyof ServiceTypes] ? ServiceTypes[S & keyof ServiceTypes][E] : never) : never;

/** What a run of the endpoint accepts: its typed input (files also as Blob, bytes, stream or path). */
export type InputOf<S extends string, E = EndpointOf<S>> =
  Known<S> extends true ? (Entry<S, E> extends { input: infer I } ? I : never) : Record<string, unknown>;

/** What a FINISHED run returns (file outputs as OutputFile). */
export type OutputOf<S extends string, E = EndpointOf<S>> =
  Known<S> extends true ? (Entry<S, E> extends { output: infer O } ? O : never) : unknown;
