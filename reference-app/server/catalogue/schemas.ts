import { z } from '@hono/zod-openapi';
import { iso } from '../api/schemas';

// Request and response schemas of /v1/model_management (checked against src/api by v1/contract.ts).

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
    hardware: z.enum(['demo', 'cpu', 'gpu']).optional().openapi({
      description: 'What runs it: demo (the local demo runtime, free), cpu (a model on the CPU, priced per CPU-second) or gpu',
    }),
    demo: z.boolean().optional().openapi({ description: 'true when it runs on the demo runtime: placeholder output, free runs' }),
    demo_reason: z.string().optional().openapi({ description: 'Why it is a demo, for the Demo badge' }),
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
