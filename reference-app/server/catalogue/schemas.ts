import { z } from '@hono/zod-openapi';
import { iso } from '../api/schemas';
import { DEPLOYMENT_STATUSES, ROLLOUT_STATUSES } from '../hosting/fleet';

// Request and response schemas of /v1/model_management (checked against src/api by api/contract.ts).

export const ModelCategorySchema = z
  .object({ id: z.string(), title: z.string(), input_domain: z.array(z.string()), output_domain: z.array(z.string()) })
  .openapi('ModelCategory');

const EndpointParameterSchema = z.object({
  name: z.string(),
  type: z.enum(['string', 'integer', 'number', 'boolean', 'file', 'array', 'object']),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});

const ServiceEndpointSchema = z.object({
  method: z.enum(['GET', 'POST']),
  path: z.string(),
  description: z.string().optional(),
  parameters: z.array(EndpointParameterSchema),
  output: z
    .object({ type: z.enum(['image', 'audio', 'video', 'text', 'json', 'mesh', 'file']), streaming: z.boolean().optional() })
    .optional()
    .openapi({ description: 'What a run produces; streaming text arrives in pieces before the result' }),
});

export const ModelDescriptorSchema = z
  .object({
    id: z.string(),
    display_name: z.string().nullable().optional(),
    model_desc: z.string().nullable().optional().openapi({ description: 'HTML; clients sanitise it' }),
    display_img_url: z.string().nullable().optional(),
    used_models: z.array(z.string()).nullable().optional(),
    model_category: z
      .union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())])
      .nullable()
      .optional()
      .openapi({ description: 'A category id, a list of ids, or an object keyed by category id' }),
    created_by: z.string().nullable().optional(),
    created_at: iso.nullable().optional(),
    n_usages: z.number().nullable().optional(),
    sort_idx_featured: z.number().nullable().optional(),
    provider: z.string().nullable().optional(),
    owner_name: z.string().nullable().optional(),
    is_public: z.boolean().optional(),
    endpoints: z.array(ServiceEndpointSchema).optional(),
    deployment: z.enum(['ready', 'starting', 'unavailable']).optional().openapi({
      description:
        'Container services only: ready (running or scaled to zero), starting (deploying) or unavailable (failed, stopped, no runner); runs are accepted when ready',
    }),
  })
  .openapi('ModelDescriptor');

export const PricingServerSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    provider: z.string(),
    physical_gpus: z.number(),
    gpu_vram_gb: z.number(),
    customer_price_per_s_usd: z.number(),
  })
  .openapi('PricingServer');

export const ModelPricingRowSchema = z
  .object({ model_id: z.string(), display_name: z.string(), unit: z.enum(['request', 'second']), price_usd: z.number() })
  .openapi('ModelPricingRow');

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
