import { z } from '@hono/zod-openapi';
import { JOB_STATUSES } from '@limelight/rules';

// OpenAPI schemas of the job API (documentation; inputs are validated against the endpoint's
// own parameters by src/run, which names every bad field).

const iso = z.string().openapi({ format: 'date-time' });

export const FieldErrorSchema = z.object({ name: z.string(), rule: z.string(), message: z.string() }).openapi('FieldError');

export const JobErrorBodySchema = z
  .object({ detail: z.string(), errors: z.array(FieldErrorSchema).optional() })
  .openapi('JobApiError', { description: '`errors` lists each bad field (422)' });

export const FileRefSchema = z.object({ url: z.string(), content_type: z.string(), size: z.number().int() }).openapi('FileRef');

export const JobLogLineSchema = z
  .object({ at: iso, stream: z.enum(['stdout', 'stderr']), text: z.string() })
  .openapi('JobLogLine', { description: "A line the job's container wrote while the job ran" });

export const JobSchema = z
  .object({
    job_id: z.string().uuid(),
    service_id: z.string(),
    endpoint: z.string(),
    status: z.enum(JOB_STATUSES),
    progress: z.number().min(0).max(1),
    message: z.string().nullable(),
    input: z.record(z.string(), z.unknown()),
    result: z.unknown().openapi({ description: 'Output once FINISHED (media as FileRef); while PROCESSING, streamed text as {text}' }),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    runtime: z.string().nullable().openapi({
      description:
        "Where the job ran: `local` is a real model computed on this server (runtimes/models), `local-demo` a demonstration runtime, not the real model; `http` and `container` a publisher's own service",
    }),
    queue: z.object({ position: z.number().int() }).nullable(),
    metrics: z.object({
      queue_ms: z.number().nullable(),
      run_ms: z.number().nullable(),
      cold_start_ms: z.number().nullable().optional().openapi({ description: 'Time spent starting the runtime (0 when it was up)' }),
      cold_start_tier: z.enum(['snapshot', 'paused', 'created', 'image', 'warm']).nullable().optional().openapi({
        description:
          'Container jobs: where the instance came from (a memory snapshot, the paused or created pool, the image, or already running); null for other runtimes',
      }),
      gpu_seconds: z.number().nullable(),
      cost_credits: z.number().nullable(),
    }),
    created_at: iso,
    started_at: iso.nullable(),
    finished_at: iso.nullable(),
    output_expires_at: iso.nullable(),
    links: z.object({ self: z.string(), cancel: z.string(), stream: z.string() }),
    logs: z.array(JobLogLineSchema).optional().openapi({
      description:
        'GET /v1/jobs/{id} only: the lines the job\'s container wrote while it ran, oldest first (docs/jobs.md, "Logs"); empty for other runtimes',
    }),
  })
  .openapi('Job');

/** What a job's webhook may be sent for (`webhook_events_filter`, docs/jobs.md "Webhooks"). */
export const WEBHOOK_EVENTS = ['start', 'output', 'logs', 'completed'] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const JobCreateSchema = z
  .object({
    service_id: z.string().min(1).max(200),
    endpoint: z.string().max(200).optional().openapi({ description: 'Endpoint path; optional when the service has one endpoint' }),
    input: z.record(z.string(), z.unknown()).openapi({ description: "Parameter values; checked against the endpoint's parameters" }),
    webhook: z
      .string()
      .max(2000)
      .optional()
      .openapi({ description: 'Called with the envelope when the job ends (Standard Webhooks signature)' }),
    webhook_events_filter: z.array(z.enum(WEBHOOK_EVENTS)).min(1).optional().openapi({
      description:
        'What the webhook is sent for (default ["completed"]): start (the job starts running), output (its streamed output changed), logs (its container wrote lines), completed (it ended). Deliveries of one event are coalesced: each carries the envelope as it is when sent',
    }),
  })
  .openapi('JobCreate');

export const JobListSchema = z.object({ jobs: z.array(JobSchema), next_cursor: z.string().nullable() }).openapi('JobList');

export const JobListQuerySchema = z.object({
  service_id: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export const JobIdParamSchema = z.object({ job_id: z.string().openapi({ param: { name: 'job_id', in: 'path' } }) });

export const EstimateQuerySchema = z.object({ service_id: z.string().min(1), endpoint: z.string().optional() });

export const EstimateSchema = z
  .object({
    service_id: z.string(),
    endpoint: z.string(),
    gpu: z.string().openapi({ description: 'What prices the run: the GPU\'s name, "CPU" or "Demo"' }),
    hardware: z.enum(['demo', 'cpu', 'gpu']).openapi({
      description: 'demo: the local demo runtime, free (placeholder output); cpu: a model on the CPU, per CPU-second; gpu: per GPU-second',
    }),
    price_per_s_usd: z.number(),
    recent_run_seconds: z.array(z.number()),
  })
  .openapi('JobEstimateData');

export const WebhookSecretSchema = z.object({ secret: z.string() }).openapi('WebhookSecret');

export const HoldsSchema = z
  .object({
    reserved: z.number().openapi({ description: 'Credits held by your QUEUED and PROCESSING jobs; available = balance − reserved' }),
    holds: z.array(
      z.object({ job_id: z.string().uuid(), service_id: z.string(), endpoint: z.string(), credits: z.number(), created_at: iso }),
    ),
  })
  .openapi('JobHolds');

/** The 429 of every operation that creates a job (POST /v1/jobs and each service's run operation). */
export const CREATE_REFUSED_429 =
  'Too many jobs created by this account in the window (Retry-After says when to try again), or too many webhook deliveries waiting';
