import { z } from '@hono/zod-openapi';
import { iso } from '../api/schemas';
import { DEPLOYMENT_STATUSES, ROLLOUT_STATUSES } from './fleet';

// Request and response schemas of GET /v1/model_management/model_hosting_information (routes.ts;
// checked against src/api by v1/contract.ts). Hosting's own, so the catalogue imports nothing
// of hosting to describe it, and hosting nothing of the catalogue.

/** Log lines model_hosting_information answers the owner. */
export const HOSTING_LOG_LINES = 100;

export const DeploymentLogLineSchema = z
  .object({
    at: iso,
    stream: z
      .enum(['stdout', 'stderr', 'runner'])
      .openapi({ description: "`runner`: the platform's own words (stages, cold starts, failures)" }),
    instance: z.string().openapi({ description: "The container's short id; empty for a line about the whole deployment" }),
    text: z.string(),
  })
  .openapi('DeploymentLogLine');

export const RolloutSchema = z
  .object({
    image: z.string().openapi({ description: "The image saved last (the runtime's `image`, e.g. a pinned `…@sha256:…`)" }),
    status: z.enum(ROLLOUT_STATUSES).openapi({
      description:
        '`pending`: saved, no runner took it up yet; `in_progress`: pulling or starting it; `succeeded`: it serves; `failed`: it never served (a refused or broken update leaves the previous version running)',
    }),
    message: z.string().openapi({ description: 'Why it failed, or what it is doing' }),
  })
  .openapi('Rollout');

export const HostingInformationSchema = z
  .object({
    hosted_model_id: z.string(),
    model_id: z.string(),
    status: z.enum(DEPLOYMENT_STATUSES),
    gpu: z.string(),
    min_instances: z.number(),
    max_instances: z.number(),
    instances: z.number().openapi({ description: 'Instances running now (container deployments; 0 when scaled to zero)' }),
    last_cold_start_ms: z.number().nullable().openapi({ description: 'The latest cold start: no running instance → answering' }),
    snapshot: z
      .object({
        size_mb: z.number().openapi({ description: 'The snapshot on the runner’s disk, in MB' }),
        taken_at: iso,
        age_s: z.number().int().openapi({ description: 'Seconds since it was taken' }),
      })
      .nullable()
      .optional()
      .openapi({
        description:
          'The memory snapshot a start from zero restores (a runner with CONTAINER_SNAPSHOTS=on; docs/deploy.md, "Snapshot cold starts"); null: none',
      }),
    message: z
      .string()
      .nullable()
      .openapi({ description: "The runner's words about the status, e.g. a failure's reason and last log lines" }),
    endpoint_url: z
      .string()
      .openapi({ description: 'Where runs of the service are created: POST with {"service_id", "endpoint", "input"} (docs/jobs.md)' }),
    updated_at: iso,
    last_queue_ms: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: "Owner only: the newest finished job's time in the queue (null before the first)" }),
    last_run_ms: z.number().nullable().optional().openapi({ description: "Owner only: the newest finished job's run time" }),
    logs: z
      .array(DeploymentLogLineSchema)
      .optional()
      .openapi({ description: `Owner only: the deployment's last ${HOSTING_LOG_LINES} log lines, oldest first` }),
    rollout: RolloutSchema.nullable().optional().openapi({
      description:
        "Owner only: the latest deploy or update of the saved image and whether it serves (null before the runner reported one). `status` alone does not say it: after a refused update it is the previous version's `running`",
    }),
  })
  .openapi('HostingInformation');

export const HostingQuerySchema = z.object({
  hosted_model_id: z.string().min(1).max(200).optional(),
  model_id: z.string().min(1).max(200).optional(),
});

/** Log lines one answer of GET /v1/model_management/services/{id}/rollout carries at most. */
export const ROLLOUT_LOG_LINES = 200;

export const RolloutQuerySchema = z.object({
  since: z
    .string()
    .regex(/^\d{1,18}$/, 'since: the `cursor` of the previous answer (digits)')
    .optional()
    .openapi({ description: 'The `cursor` of the previous answer: only lines written after it. Absent: the last lines' }),
});

export const RolloutProgressSchema = z
  .object({
    status: z.enum(DEPLOYMENT_STATUSES),
    message: z.string().nullable().openapi({ description: "The runner's words about the status" }),
    instances: z.number(),
    rollout: RolloutSchema.nullable().openapi({ description: 'The latest rollout, as in model_hosting_information' }),
    lines: z.array(DeploymentLogLineSchema).openapi({
      description: `The deployment's log lines after \`since\` (pull, start, the app's output, health), oldest first; at most ${ROLLOUT_LOG_LINES}`,
    }),
    cursor: z.string().openapi({ description: 'Pass as `since` to read the lines written after these' }),
    more: z.boolean().openapi({ description: 'More lines are already written after `cursor`: ask again at once' }),
  })
  .openapi('RolloutProgress');
