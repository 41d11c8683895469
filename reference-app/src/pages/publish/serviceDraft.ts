import type {
  EndpointParameter,
  FieldError,
  ManagedService,
  ModelDescriptor,
  ServiceEndpoint,
  ServiceInput,
  ServiceVisibility,
} from '@limelight/widgets/api';
import { SERVICE_INPUT_RULES } from '@limelight/widgets/api';

// The service editor's form state (docs/publishing.md) and its conversions, apart from React:
// a draft holds what the inputs show (strings where the user types numbers), `toServiceInput`
// turns it into the API's body or lists what is wrong, `previewOf` renders it as the catalogue
// would. Tested in test/unit/publish/serviceDraft.test.ts.

export type ParameterType = EndpointParameter['type'];
export const PARAMETER_TYPES: readonly ParameterType[] = ['string', 'integer', 'number', 'boolean', 'file', 'array', 'object'];

/** A parameter as its row of inputs shows it; `source` keeps what the form does not edit (step, items). */
export interface ParameterDraft {
  name: string;
  type: ParameterType;
  required: boolean;
  default: string;
  minimum: string;
  maximum: string;
  /** Allowed values, comma-separated. */
  enum: string;
  description: string;
  source?: EndpointParameter;
}

export interface EndpointDraft extends Omit<ServiceEndpoint, 'parameters'> {
  parameters: ParameterDraft[];
}

export interface HeaderDraft {
  name: string;
  value: string;
}

export type RuntimeKind = 'none' | 'http' | 'container' | 'local-demo';

export interface RuntimeDraft {
  kind: RuntimeKind;
  baseUrl: string;
  /** New header values; an empty list keeps the stored ones (their names are in `storedHeaderNames`). */
  headers: HeaderDraft[];
  storedHeaderNames: string[];
  image: string;
  registryCredentialId: string;
  gpu: string;
  minInstances: string;
  maxInstances: string;
  idleTimeoutS: string;
  /** What "Check health" (and a container's readiness gate) asks; empty: the OpenAPI document. */
  healthPath: string;
  /** What one instance may use (docs/publishing.md, "Resources"), as typed; empty: the server's default. */
  cpu: string;
  memoryMb: string;
  gpus: string;
  /** Starts from zero may restore a memory snapshot (runtime.snapshot; docs/deploy.md, "Snapshot cold starts"). */
  snapshot: boolean;
  /**
   * A container's settings this editor has no field for (the CLI sets them from limelight.yaml),
   * sent back as stored: a save replaces the whole runtime, so leaving them out would reset them.
   */
  unshown: { port?: number; concurrency?: number };
}

/** A container runtime's `resources` as the server answers them (defaults filled in). */
interface StoredResources {
  cpu: number;
  memory_mb: number;
  gpu: number;
}

export interface ServiceDraft {
  displayName: string;
  description: string;
  categories: string[];
  /** Tags, comma-separated as typed. */
  tags: string;
  visibility: ServiceVisibility;
  endpoints: EndpointDraft[];
  runtime: RuntimeDraft;
}

/** The server's limit (its ServiceInput schema, through `SERVICE_INPUT_RULES`). */
export const MAX_NAME_LENGTH = SERVICE_INPUT_RULES.displayNameMaxLength;

const text = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));
const numberText = (value: number | undefined) => (value === undefined ? '' : String(value));

export function parameterDraft(parameter: EndpointParameter): ParameterDraft {
  return {
    name: parameter.name,
    type: parameter.type,
    required: parameter.required,
    default: text(parameter.default),
    minimum: numberText(parameter.minimum),
    maximum: numberText(parameter.maximum),
    enum: (parameter.enum ?? []).join(', '),
    description: parameter.description ?? '',
    source: parameter,
  };
}

export const emptyParameter = (): ParameterDraft => parameterDraft({ name: '', type: 'string', required: false });

export function endpointDraft(endpoint: ServiceEndpoint): EndpointDraft {
  return { ...endpoint, parameters: (endpoint.parameters ?? []).map(parameterDraft) };
}

export const emptyEndpoint = (): EndpointDraft => ({
  method: 'POST',
  path: '/',
  description: '',
  parameters: [],
  output: { type: 'json' },
});

const emptyRuntime = (): RuntimeDraft => ({
  kind: 'http',
  baseUrl: '',
  headers: [],
  storedHeaderNames: [],
  image: '',
  registryCredentialId: '',
  gpu: '',
  minInstances: '0',
  maxInstances: '1',
  idleTimeoutS: '300',
  healthPath: '',
  cpu: '',
  memoryMb: '',
  gpus: '',
  snapshot: true,
  unshown: {},
});

/** A new service: public (free on every plan, product-rules §9) and run at the developer's own URL. */
export const emptyDraft = (): ServiceDraft => ({
  displayName: '',
  description: '',
  categories: [],
  tags: '',
  visibility: 'public',
  endpoints: [],
  runtime: emptyRuntime(),
});

/** The stored resources as the inputs show them; a server that answers none leaves them empty (its defaults). */
const resourcesDraft = (resources: StoredResources | undefined): Pick<RuntimeDraft, 'cpu' | 'memoryMb' | 'gpus'> =>
  resources
    ? { cpu: String(resources.cpu), memoryMb: String(resources.memory_mb), gpus: String(resources.gpu) }
    : { cpu: '', memoryMb: '', gpus: '' };

export function draftOf(service: ManagedService): ServiceDraft {
  const runtime = emptyRuntime();
  const stored = service.runtime;
  if (stored.type === 'http')
    Object.assign(runtime, {
      kind: 'http',
      baseUrl: stored.base_url,
      storedHeaderNames: stored.header_names,
      healthPath: stored.health_path,
    });
  else if (stored.type === 'container')
    Object.assign(runtime, {
      kind: 'container',
      image: stored.image,
      registryCredentialId: stored.registry_credential_id ?? '',
      gpu: stored.gpu,
      minInstances: String(stored.min_instances),
      maxInstances: String(stored.max_instances),
      idleTimeoutS: String(stored.idle_timeout_s),
      healthPath: stored.health_path,
      ...resourcesDraft((stored as { resources?: StoredResources }).resources),
      // Answered by servers that have the field; absent, the default (true).
      snapshot: (stored as { snapshot?: boolean }).snapshot !== false,
      unshown: { port: stored.port, concurrency: stored.concurrency },
    });
  else runtime.kind = 'local-demo';
  return {
    displayName: service.display_name,
    description: service.model_desc ?? '',
    categories: [...service.model_category],
    tags: service.used_models.join(', '),
    visibility: service.visibility,
    endpoints: service.endpoints.map(endpointDraft),
    runtime,
  };
}

export const tagsOf = (tags: string) => [...new Set(tags.split(',').map((t) => t.trim()))].filter(Boolean);

/** A typed number, or an error for the field when it is not one. */
function readNumber(raw: string, field: string, errors: FieldError[], { integer = false, min }: { integer?: boolean; min?: number } = {}) {
  if (raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    errors.push({ name: field, rule: 'type', message: integer ? 'must be a whole number' : 'must be a number' });
    return undefined;
  }
  if (min !== undefined && value < min) {
    errors.push({ name: field, rule: 'minimum', message: `must be at least ${min}` });
    return undefined;
  }
  return value;
}

/** The default as the parameter's type reads it: numbers, true/false, JSON for arrays and objects. */
function readDefault(p: ParameterDraft, field: string, errors: FieldError[]): unknown {
  if (p.default.trim() === '') return undefined;
  if (p.type === 'integer' || p.type === 'number') return readNumber(p.default, field, errors, { integer: p.type === 'integer' });
  if (p.type === 'boolean') {
    if (p.default === 'true' || p.default === 'false') return p.default === 'true';
    errors.push({ name: field, rule: 'type', message: 'must be true or false' });
    return undefined;
  }
  if (p.type === 'array' || p.type === 'object') {
    try {
      return JSON.parse(p.default);
    } catch {
      errors.push({ name: field, rule: 'type', message: `must be JSON (${p.type === 'array' ? '[…]' : '{…}'})` });
      return undefined;
    }
  }
  return p.default;
}

function toParameter(p: ParameterDraft, field: string, errors: FieldError[]): EndpointParameter {
  const numeric = p.type === 'integer' || p.type === 'number';
  const values = p.enum
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const {
    default: _d,
    minimum: _min,
    maximum: _max,
    enum: _e,
    description: _desc,
    ...kept
  } = p.source ?? { name: '', type: p.type, required: false };
  const parameter: EndpointParameter = { ...kept, name: p.name.trim(), type: p.type, required: p.required };
  if (!numeric) delete parameter.step;
  if (p.type !== 'array') delete parameter.items;
  const defaultValue = readDefault(p, `${field}.default`, errors);
  if (defaultValue !== undefined) parameter.default = defaultValue;
  if (numeric) {
    const minimum = readNumber(p.minimum, `${field}.minimum`, errors);
    const maximum = readNumber(p.maximum, `${field}.maximum`, errors);
    if (minimum !== undefined) parameter.minimum = minimum;
    if (maximum !== undefined) parameter.maximum = maximum;
  }
  if (values.length) parameter.enum = numeric ? values.map(Number) : values;
  if (p.description.trim()) parameter.description = p.description.trim();
  if (!parameter.name) errors.push({ name: `${field}.name`, rule: 'required', message: 'is required' });
  return parameter;
}

/** The health path as typed, checked by the server's rule; left out when empty (the server's default). */
function healthPathOf(runtime: RuntimeDraft, errors: FieldError[]): { health_path?: string } {
  const path = runtime.healthPath.trim();
  if (!path) return {};
  if (!SERVICE_INPUT_RULES.healthPath.test(path) || path.length > SERVICE_INPUT_RULES.healthPathMaxLength)
    errors.push({ name: 'runtime.health_path', rule: 'pattern', message: 'must be a path starting with /, such as /openapi.json' });
  return { health_path: path };
}

/**
 * The typed resources, each left out when empty (the server's default); the server checks the
 * ranges and answers 422 naming the field, which the editor shows beside it.
 */
function resourcesOf(runtime: RuntimeDraft, errors: FieldError[]): { resources?: Partial<StoredResources> } {
  const cpu = readNumber(runtime.cpu, 'runtime.resources.cpu', errors);
  const memory = readNumber(runtime.memoryMb, 'runtime.resources.memory_mb', errors, { integer: true, min: 0 });
  const gpu = readNumber(runtime.gpus, 'runtime.resources.gpu', errors, { integer: true, min: 0 });
  const resources = {
    ...(cpu !== undefined ? { cpu } : {}),
    ...(memory !== undefined ? { memory_mb: memory } : {}),
    ...(gpu !== undefined ? { gpu } : {}),
  };
  return Object.keys(resources).length ? { resources } : {};
}

function toRuntime(runtime: RuntimeDraft, errors: FieldError[]): ServiceInput['runtime'] | undefined {
  if (runtime.kind === 'local-demo') return undefined;
  if (runtime.kind === 'none') return null;
  if (runtime.kind === 'http') {
    if (!runtime.baseUrl.trim()) errors.push({ name: 'runtime.base_url', rule: 'required', message: 'is required' });
    const filled = runtime.headers.filter((h) => h.name.trim() || h.value);
    for (const [i, h] of filled.entries())
      if (!h.name.trim()) errors.push({ name: `runtime.headers.${i}`, rule: 'required', message: 'needs a header name' });
    const headers = filled.length ? Object.fromEntries(filled.map((h) => [h.name.trim(), h.value])) : undefined;
    return { type: 'http', base_url: runtime.baseUrl.trim(), ...(headers ? { headers } : {}), ...healthPathOf(runtime, errors) };
  }
  if (!runtime.image.trim()) errors.push({ name: 'runtime.image', rule: 'required', message: 'is required' });
  if (!runtime.gpu) errors.push({ name: 'runtime.gpu', rule: 'required', message: 'choose a GPU' });
  const min = readNumber(runtime.minInstances, 'runtime.min_instances', errors, { integer: true, min: 0 }) ?? 0;
  const max = readNumber(runtime.maxInstances, 'runtime.max_instances', errors, { integer: true, min: 1 }) ?? 1;
  const idle = readNumber(runtime.idleTimeoutS, 'runtime.idle_timeout_s', errors, { integer: true, min: 0 }) ?? 300;
  if (max < min) errors.push({ name: 'runtime.max_instances', rule: 'minimum', message: 'must be at least the minimum instances' });
  return {
    type: 'container',
    image: runtime.image.trim(),
    registry_credential_id: runtime.registryCredentialId || null,
    gpu: runtime.gpu,
    min_instances: min,
    max_instances: max,
    idle_timeout_s: idle,
    ...healthPathOf(runtime, errors),
    ...resourcesOf(runtime, errors),
    snapshot: runtime.snapshot,
    ...runtime.unshown,
  };
}

/**
 * The API body for the draft, or the fields the browser can already tell are wrong (named as
 * the server names them, so one map of errors serves both).
 */
export function toServiceInput(draft: ServiceDraft): { input: ServiceInput; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const displayName = draft.displayName.trim();
  if (!displayName) errors.push({ name: 'display_name', rule: 'required', message: 'is required' });
  else if (displayName.length > MAX_NAME_LENGTH)
    errors.push({ name: 'display_name', rule: 'too_big', message: `must be at most ${MAX_NAME_LENGTH} characters` });
  const endpoints = draft.endpoints.map((e, i) => {
    const { parameters, ...rest } = e;
    if (!rest.path.startsWith('/')) errors.push({ name: `endpoints.${i}.path`, rule: 'invalid', message: 'must start with /' });
    else if (!SERVICE_INPUT_RULES.endpointPath.test(rest.path) || rest.path.length > SERVICE_INPUT_RULES.endpointPathMaxLength)
      errors.push({ name: `endpoints.${i}.path`, rule: 'invalid', message: 'may contain only letters, digits and . _ ~ - /' });
    return {
      ...rest,
      description: rest.description?.trim() || undefined,
      parameters: parameters.map((p, j) => toParameter(p, `endpoints.${i}.parameters.${j}`, errors)),
    };
  });
  const runtime = toRuntime(draft.runtime, errors);
  const input: ServiceInput = {
    display_name: displayName,
    model_desc: draft.description.trim() || null,
    model_category: draft.categories,
    used_models: tagsOf(draft.tags),
    visibility: draft.visibility,
    endpoints,
    ...(runtime !== undefined ? { runtime } : {}),
  };
  return { input, errors };
}

/** Whether the draft differs from what was loaded (ignores what conversion normalises away). */
export const isDirty = (draft: ServiceDraft, saved: ServiceDraft) => JSON.stringify(draft) !== JSON.stringify(saved);

/** The draft as the catalogue card and service page would show it once saved. */
export function previewOf(draft: ServiceDraft, saved: ManagedService | null, ownerName: string | null): ModelDescriptor {
  const { input } = toServiceInput(draft);
  return {
    id: saved?.id ?? 'new-service',
    display_name: input.display_name || null,
    model_desc: input.model_desc,
    display_img_url: saved?.display_img_url ?? null,
    used_models: input.used_models,
    model_category: input.model_category,
    created_at: saved?.created_at ?? null,
    n_usages: saved?.n_usages ?? 0,
    provider: 'limelight',
    owner_name: ownerName,
    is_public: draft.visibility === 'public',
    endpoints: input.endpoints,
  };
}

/** Field errors keyed by field name (`display_name`, `endpoints.0.parameters.1.name`, …). */
export function errorMap(errors: readonly FieldError[] | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const e of errors ?? []) map[e.name] ??= e.message;
  return map;
}

// ---- Immutable edits of the endpoint list, as the editor's buttons and inputs make them.

const replaceAt = <T>(list: readonly T[], index: number, item: T) => list.map((x, i) => (i === index ? item : x));

export const withEndpoint = (draft: ServiceDraft, index: number, patch: Partial<EndpointDraft>): ServiceDraft => ({
  ...draft,
  endpoints: replaceAt(draft.endpoints, index, { ...draft.endpoints[index]!, ...patch }),
});

export const addEndpoint = (draft: ServiceDraft): ServiceDraft => ({ ...draft, endpoints: [...draft.endpoints, emptyEndpoint()] });

export const removeEndpoint = (draft: ServiceDraft, index: number): ServiceDraft => ({
  ...draft,
  endpoints: draft.endpoints.filter((_, i) => i !== index),
});

export const withParameter = (draft: ServiceDraft, endpoint: number, index: number, patch: Partial<ParameterDraft>): ServiceDraft => {
  const parameters = draft.endpoints[endpoint]!.parameters;
  return withEndpoint(draft, endpoint, { parameters: replaceAt(parameters, index, { ...parameters[index]!, ...patch }) });
};

export const addParameter = (draft: ServiceDraft, endpoint: number): ServiceDraft =>
  withEndpoint(draft, endpoint, { parameters: [...draft.endpoints[endpoint]!.parameters, emptyParameter()] });

export const removeParameter = (draft: ServiceDraft, endpoint: number, index: number): ServiceDraft =>
  withEndpoint(draft, endpoint, { parameters: draft.endpoints[endpoint]!.parameters.filter((_, i) => i !== index) });

export const withRuntime = (draft: ServiceDraft, patch: Partial<RuntimeDraft>): ServiceDraft => ({
  ...draft,
  runtime: { ...draft.runtime, ...patch },
});
