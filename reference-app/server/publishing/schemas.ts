import { z } from '@hono/zod-openapi';
import { GPU_PRICES } from '@limelight/rules';
import { DEFAULT_CONCURRENCY, DEFAULT_HEALTH_PATH, DEFAULT_PORT, DEFAULT_RESOURCES, RESOURCE_BOUNDS } from '../hosting/contract';

// Request and response shapes of /v1/model_management/services. Limits keep one service's
// description well within a catalogue response; each names its field when it is broken.

const PARAMETER_TYPES = ['string', 'integer', 'number', 'boolean', 'file', 'array', 'object'] as const;
const OUTPUT_TYPES = ['image', 'audio', 'video', 'text', 'json', 'mesh', 'file'] as const;

export const ParameterSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must start with a letter or _ and hold at most 64 letters, digits or _'),
    type: z.enum(PARAMETER_TYPES),
    required: z.boolean(),
    default: z.unknown().optional(),
    description: z.string().max(1000).optional(),
    minimum: z.number().finite().optional(),
    maximum: z.number().finite().optional(),
    enum: z
      .array(z.union([z.string().max(200), z.number().finite()]))
      .min(1)
      .max(100)
      .optional(),
    step: z.number().finite().positive().optional(),
    items: z.object({ type: z.enum(['string', 'integer', 'number', 'boolean', 'file', 'object']) }).optional(),
  })
  .superRefine((p, ctx) => {
    if (p.minimum !== undefined && p.maximum !== undefined && p.minimum > p.maximum) {
      ctx.addIssue({ code: 'custom', path: ['maximum'], message: `must be at least the minimum (${p.minimum})` });
    }
    if (p.enum && p.default !== undefined && !p.enum.includes(p.default as string | number)) {
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'must be one of the allowed values' });
    }
  });

export const EndpointSchema = z
  .object({
    method: z.enum(['GET', 'POST']),
    path: z
      .string()
      .max(200)
      .regex(/^\/[A-Za-z0-9._~\-/]*$/, 'must start with / and hold only letters, digits and . _ ~ - /'),
    description: z.string().max(2000).optional(),
    parameters: z.array(ParameterSchema).max(100),
    output: z.object({ type: z.enum(OUTPUT_TYPES), streaming: z.boolean().optional() }).optional(),
    time_limit_s: z.number().int().min(1).max(3600).optional(),
  })
  .superRefine((endpoint, ctx) => {
    const seen = new Set<string>();
    endpoint.parameters.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: 'custom', path: ['parameters', i, 'name'], message: `"${p.name}" is used twice` });
      seen.add(p.name);
    });
  });

const HeaderName = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'header names hold letters, digits and - only');

/** The path the owner's health check (and a container's readiness gate) asks with a GET. */
const HealthPath = z
  .string()
  .max(200, 'must be at most 200 characters')
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$/, 'must be a path starting with /, such as /openapi.json')
  .optional()
  .openapi({ description: `default ${DEFAULT_HEALTH_PATH}` });

const { cpu, memoryMb, gpu } = RESOURCE_BOUNDS;

/** The GPU offers a `resources.gpu.type` may name (@limelight/rules, gpus.ts). */
export const GPU_TYPES = GPU_PRICES.map((offer) => offer.id) as [string, ...string[]];

const GpuCount = z
  .number({ error: 'must be a number of GPUs, such as 0 or 1' })
  .int('must be a whole number of GPUs')
  .min(gpu.min, `must be between ${gpu.min} and ${gpu.max} GPUs`)
  .max(gpu.max, `must be between ${gpu.min} and ${gpu.max} GPUs`);

/**
 * `gpu: {type, count}` (docs/publishing.md, "Resources"): `count` GPUs of the offer `type` per
 * instance. The type is the service's GPU offer (runtime.gpu names the same one, or none), which
 * prices its runs at the offer's price times the count.
 */
export const GpuRequestSchema = z
  .object({
    type: z.enum(GPU_TYPES, { error: `must be one of the GPU offers: ${GPU_TYPES.join(', ')}` }).openapi({
      description: 'A GPU offer of GET /v1/model_management/pricing_servers: the service is priced at it',
    }),
    count: z
      .number({ error: 'must be a number of GPUs, such as 1' })
      .int('must be a whole number of GPUs')
      .min(1, `must be between 1 and ${gpu.max} GPUs`)
      .max(gpu.max, `must be between 1 and ${gpu.max} GPUs`)
      .optional()
      .openapi({ description: 'GPUs of that type per instance (default 1)' }),
  })
  // Inline, not a named component: the generated ServiceInput schema (src/api/generated) stands alone.
  .strict();

/** Why a `resources.gpu` that is neither a count nor a valid {type, count} is refused, in one sentence. */
function gpuProblem(input: unknown): string {
  const example = `{type: "${GPU_TYPES[0]}", count: 1}`;
  if (typeof input === 'number') return 'must be a whole number of GPUs';
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `must be a number of GPUs (${gpu.min} to ${gpu.max}) or {type, count}, such as ${example}`;
  }
  const fields = input as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => key !== 'type' && key !== 'count');
  if (unknown.length) return `takes type and count only, not ${unknown.join(', ')}`;
  if (typeof fields.type !== 'string' || !GPU_TYPES.includes(fields.type)) {
    return `type must be one of the GPU offers (${GPU_TYPES.join(', ')}), got ${JSON.stringify(fields.type ?? null)}`;
  }
  return `count must be a whole number of GPUs from 1 to ${gpu.max}, such as ${example}`;
}

/**
 * What one instance of a container service may use (docs/publishing.md, "Resources"): its own
 * declaration, never derived from the GPU offer. Each field is optional; what is absent is the
 * default of a CPU service.
 */
export const ResourcesSchema = z
  .object({
    cpu: z
      .number({ error: 'must be a number of CPUs, such as 1 or 0.5' })
      .min(cpu.min, `must be between ${cpu.min} and ${cpu.max} CPUs`)
      .max(cpu.max, `must be between ${cpu.min} and ${cpu.max} CPUs`)
      .multipleOf(0.1, 'must be in steps of 0.1 CPU')
      .optional()
      .openapi({ description: `CPUs per instance, a ceiling (default ${DEFAULT_RESOURCES.cpu})` }),
    memory_mb: z
      .number({ error: 'must be a number of megabytes, such as 1024' })
      .int('must be a whole number of megabytes')
      .min(memoryMb.min, `must be between ${memoryMb.min} and ${memoryMb.max} MB`)
      .max(memoryMb.max, `must be between ${memoryMb.min} and ${memoryMb.max} MB`)
      .optional()
      .openapi({
        description: `memory per instance in MB, its limit and its reservation on the runner (default ${DEFAULT_RESOURCES.memoryMb})`,
      }),
    gpu: z
      .union([GpuCount, GpuRequestSchema], {
        error: (issue) => gpuProblem(issue.input),
      })
      .optional()
      .openapi({
        description: `GPUs per instance, a count or {type, count}; more than 0 runs only on a runner with a GPU (default ${DEFAULT_RESOURCES.gpu})`,
      }),
  })
  .strict();

export const RuntimeInputSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('http'),
    base_url: z
      .string()
      .max(2000)
      .url('must be a URL')
      .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://'),
    headers: z
      .record(HeaderName, z.string().max(4096))
      .refine((h) => Object.keys(h).length <= 10, 'at most 10 headers')
      .optional(),
    // Under the base URL, as the endpoints' paths (issue 39: before, the check asked GET /).
    health_path: HealthPath,
  }),
  z
    .object({
      type: z.literal('container'),
      image: z
        .string()
        .max(255)
        .regex(/^[a-z0-9][a-z0-9._\-/:@]*$/i, 'must be an image reference such as docker.io/owner/name:tag'),
      registry_credential_id: z.string().uuid().nullable().optional(),
      gpu: z.string().min(1).max(100),
      min_instances: z.number().int().min(0).max(100),
      max_instances: z.number().int().min(1).max(1000),
      idle_timeout_s: z.number().int().min(10).max(86_400),
      // The container contract (docs/publishing.md): where the image serves HTTP, the path that
      // gates traffic, and how many jobs one instance takes at once.
      port: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be a port between 1 and 65535')
        .max(65_535, 'must be a port between 1 and 65535')
        .optional()
        .openapi({ description: `default ${DEFAULT_PORT}` }),
      health_path: HealthPath,
      concurrency: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be between 1 and 64 jobs at once')
        .max(64, 'must be between 1 and 64 jobs at once')
        .optional()
        .openapi({ description: `default ${DEFAULT_CONCURRENCY}` }),
      resources: ResourcesSchema.optional(),
      // false: the runner never snapshots the service, every start from zero is cold (docs/deploy.md,
      // "Snapshot cold starts"); for code that cannot be snapshotted.
      snapshot: z
        .boolean({ error: 'must be true or false' })
        .optional()
        .openapi({ description: 'default true: a start from zero may restore a memory snapshot (runners with snapshots on)' }),
    })
    .superRefine((r, ctx) => {
      if (r.max_instances < r.min_instances) {
        ctx.addIssue({ code: 'custom', path: ['max_instances'], message: `must be at least min_instances (${r.min_instances})` });
      }
      // The type is the offer: the runtime's `gpu` names the same one (docs/publishing.md, "Resources").
      const requested = r.resources?.gpu;
      if (typeof requested === 'object' && requested.type !== r.gpu) {
        ctx.addIssue({
          code: 'custom',
          path: ['resources', 'gpu', 'type'],
          message: `is the GPU offer "${requested.type}" but runtime.gpu is "${r.gpu}": name the same offer in both`,
        });
      }
    }),
]);

const serviceFields = {
  display_name: z.string().trim().min(1, 'is required').max(80),
  model_desc: z.string().max(20_000).nullable(),
  model_category: z.array(z.string().max(100)).max(10),
  used_models: z.array(z.string().trim().min(1).max(60)).max(20),
  visibility: z.enum(['public', 'private']),
  status: z.enum(['active', 'paused']),
  endpoints: z
    .array(EndpointSchema)
    .max(50)
    .superRefine((endpoints, ctx) => {
      const seen = new Set<string>();
      endpoints.forEach((e, i) => {
        const key = `${e.method} ${e.path}`;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'path'], message: `${key} is defined twice` });
        seen.add(key);
      });
    }),
  runtime: RuntimeInputSchema.nullable(),
};

export const ServiceCreateSchema = z
  .object({ ...serviceFields, display_name: serviceFields.display_name })
  .partial()
  .required({ display_name: true })
  .strict()
  .openapi('ServiceInput');

export const ServicePatchSchema = z.object(serviceFields).partial().strict().openapi('ServicePatch');

export const ImportOpenApiSchema = z
  .object({
    url: z.string().max(2000).url('must be a URL').optional(),
    document: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .openapi('ImportOpenApi');

export const ServiceIdParamSchema = z.object({ id: z.string().min(1).max(200) });

const HealthSchema = z.object({
  status: z.enum(['ok', 'failing', 'unreachable', 'waiting_for_runner']),
  latency_ms: z.number().nullable(),
  checked_at: z.string(),
  detail: z.string(),
});

export const HealthCheckSchema = HealthSchema.openapi('HealthCheck');

export const ManagedServiceSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    model_desc: z.string().nullable(),
    display_img_url: z.string().nullable(),
    model_category: z.array(z.string()),
    used_models: z.array(z.string()),
    visibility: z.enum(['public', 'private']),
    status: z.enum(['active', 'paused']),
    endpoints: z.array(z.any()),
    runtime: z.any(),
    health: HealthSchema.nullable(),
    n_usages: z.number(),
    earnings_credits: z.number(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('ManagedService');

export const OpenApiImportSchema = z.object({ endpoints: z.array(z.any()), unsupported: z.array(z.string()) }).openapi('OpenApiImport');

export type ServiceCreate = z.infer<typeof ServiceCreateSchema>;
export type ServicePatch = z.infer<typeof ServicePatchSchema>;
export type RuntimeInput = z.infer<typeof RuntimeInputSchema>;
export type RuntimeResourcesInput = z.infer<typeof ResourcesSchema>;
