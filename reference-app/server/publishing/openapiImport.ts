import type { EndpointParameter, ServiceEndpoint } from '@limelight/widgets/api';

// Endpoint import: an OpenAPI 3 document (as FastAPI and similar frameworks serve it at
// /openapi.json) becomes the service's endpoints. Whatever cannot be expressed as an endpoint
// parameter is listed back to the user, never dropped silently.
//
// $ref pointers are followed lazily, only where the import reads a path item, parameter, request
// body, response or schema, and only inside the document (an import never makes the server fetch
// other URLs). Nothing else is resolved: a `default` or `example` is data, copied as written. A
// few kilobytes of pointers that fan out can stand for gigabytes once expanded, so the lookups and
// the parameters produced are counted and the import stops with a 422 past the limits
// (docs/security.md, "Limits").

export type OutputType = NonNullable<ServiceEndpoint['output']>['type'];

export interface ImportResult {
  endpoints: ServiceEndpoint[];
  /** One line per construct that was not imported, naming where it is. */
  unsupported: string[];
}

export class OpenApiImportError extends Error {
  override name = 'OpenApiImportError';
}

type Schema = Record<string, unknown>;

/** $ref lookups and parameters one import may make: a large real API needs a few thousand. */
export const MAX_IMPORT_WORK = 50_000;
/** Largest imported result (its endpoints as JSON). */
export const MAX_IMPORT_RESULT_BYTES = 1024 * 1024;
/** Largest object or array `default` copied into a parameter, as JSON. */
export const MAX_DEFAULT_BYTES = 16 * 1024;
/** Longest chain of $ref to $ref, and deepest nesting of allOf/anyOf/oneOf. */
const MAX_REF_CHAIN = 32;
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);

const EXTERNAL = Symbol('external $ref');

/** Follows internal $ref pointers on demand and counts the work an import does. */
class References {
  #work = 0;
  constructor(private readonly document: Schema) {}

  /** One unit of work; past the limit the import stops, naming what was too large. */
  count(what: string): void {
    if (++this.#work > MAX_IMPORT_WORK) {
      throw new OpenApiImportError(
        `The document is too large once its $ref pointers are followed: more than ${MAX_IMPORT_WORK} ${what}. Import a smaller document.`,
      );
    }
  }

  #pointer(ref: string): unknown {
    if (ref === '#') return this.document;
    if (!ref.startsWith('#/')) return EXTERNAL; // never fetched: what it stands for is not imported
    let target: unknown = this.document;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(target) && !Array.isArray(target)) return undefined;
      target = Object.hasOwn(target, key) ? (target as Schema)[key] : undefined;
    }
    return target;
  }

  /** The value a $ref stands for (its sibling keywords on top, as OpenAPI 3.1 allows), or the value itself. */
  resolve(value: unknown): unknown {
    let current = value;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      if (hops >= MAX_REF_CHAIN)
        throw new OpenApiImportError(`$ref "${String(current.$ref).slice(0, 200)}" starts a chain of more than ${MAX_REF_CHAIN} pointers`);
      this.count('$ref lookups');
      const { $ref, ...siblings } = current;
      const target = this.#pointer($ref as string);
      if (target === EXTERNAL) return undefined;
      if (target === undefined) {
        throw new OpenApiImportError(`The document's $ref pointers cannot be resolved: "${String($ref).slice(0, 200)}" points at nothing`);
      }
      current = isObject(target) && Object.keys(siblings).length ? { ...target, ...siblings } : target;
    }
    return current;
  }

  schema(value: unknown): Schema | undefined {
    const resolved = this.resolve(value);
    return isObject(resolved) ? resolved : undefined;
  }
}

/** A parameter's default as written: scalars as they are, objects and arrays copied when small. */
function defaultOf(value: unknown, name: string, where: string, unsupported: string[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  if (json.length > MAX_DEFAULT_BYTES) {
    unsupported.push(`${where}: the default of parameter "${name}" is ${json.length} bytes of JSON (at most ${MAX_DEFAULT_BYTES})`);
    return undefined;
  }
  return JSON.parse(json) as unknown; // a copy: never shared with the document or another parameter
}

/** Refuses documents that are not OpenAPI 3. */
export function checkOpenApiDocument(document: unknown): Schema {
  if (!isObject(document)) throw new OpenApiImportError('The document is not a JSON object');
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    const swagger = typeof document.swagger === 'string' ? ` (found swagger ${document.swagger})` : '';
    throw new OpenApiImportError(`Only OpenAPI 3.0 and 3.1 documents can be imported${swagger}: the "openapi" field is missing or not 3.x`);
  }
  if (!isObject(document.paths)) throw new OpenApiImportError('The document has no "paths" object');
  return document;
}

/**
 * FastAPI writes `Optional[X]` as `anyOf: [X, {type: null}]` and enum fields as
 * `allOf: [{$ref}]`: both reduce to X. Returns undefined for a union this model cannot express.
 */
function simplify(refs: References, raw: unknown, depth = 0): Schema | undefined {
  const schema = refs.schema(raw);
  if (!schema) return undefined;
  refs.count('schema steps');
  if (depth > MAX_REF_CHAIN) {
    throw new OpenApiImportError(
      `A schema nests allOf, anyOf or oneOf more than ${MAX_REF_CHAIN} levels deep (or refers to itself through them)`,
    );
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const nonNull = options.map((o) => refs.schema(o)).filter((o) => o && o.type !== 'null');
      if (nonNull.length !== 1) return undefined;
      const { [key]: _dropped, ...rest } = schema;
      return simplify(refs, { ...nonNull[0], ...rest }, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    const parts = (allOf as unknown[]).map((part) => refs.schema(part)).filter(isObject);
    return simplify(refs, Object.assign({}, ...parts, rest) as Schema, depth + 1);
  }
  if (Array.isArray(schema.type)) {
    const types = (schema.type as unknown[]).filter((t) => t !== 'null');
    if (types.length !== 1) return undefined;
    return { ...schema, type: types[0] };
  }
  return schema;
}

function parameterType(schema: Schema): EndpointParameter['type'] | undefined {
  if (schema.type === 'string' && (schema.format === 'binary' || schema.contentMediaType !== undefined)) return 'file';
  if (typeof schema.type === 'string' && SCALAR_TYPES.has(schema.type)) return schema.type as EndpointParameter['type'];
  if (schema.type === undefined && Array.isArray(schema.enum)) return 'string';
  if (schema.type === undefined && isObject(schema.properties)) return 'object';
  return undefined;
}

function toParameter(
  refs: References,
  name: string,
  raw: unknown,
  required: boolean,
  where: string,
  unsupported: string[],
): EndpointParameter | undefined {
  refs.count('parameters');
  const schema = simplify(refs, raw);
  if (!schema) {
    unsupported.push(`${where}: parameter "${name}" has a union type (anyOf/oneOf of several types)`);
    return undefined;
  }
  let type = parameterType(schema);
  const items = type === 'array' ? simplify(refs, schema.items) : undefined;
  if (items && parameterType(items) === 'file') type = 'file';
  if (!type) {
    unsupported.push(`${where}: parameter "${name}" has an unsupported schema (type ${JSON.stringify(schema.type ?? 'missing')})`);
    return undefined;
  }
  const parameter: EndpointParameter = { name, type, required };
  const description =
    typeof schema.description === 'string' ? schema.description : typeof schema.title === 'string' ? schema.title : undefined;
  if (description) parameter.description = description;
  const fallback = schema.default === undefined ? undefined : defaultOf(schema.default, name, where, unsupported);
  if (fallback !== undefined) parameter.default = fallback;
  if (Array.isArray(schema.enum)) parameter.enum = schema.enum.filter((v) => v !== null) as (string | number)[];
  const minimum =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum =
    typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  if (minimum !== undefined) parameter.minimum = minimum;
  if (maximum !== undefined) parameter.maximum = maximum;
  if (typeof schema.multipleOf === 'number') parameter.step = schema.multipleOf;
  if (type === 'array' && items) {
    const itemType = items && parameterType(items);
    if (itemType && itemType !== 'array' && itemType !== 'file') parameter.items = { type: itemType };
  }
  return parameter;
}

function bodyParameters(refs: References, operation: Schema, where: string, unsupported: string[]): EndpointParameter[] {
  const body = refs.schema(operation.requestBody);
  if (!body || !isObject(body.content)) return [];
  const content = body.content;
  const mediaType = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'].find((m) => isObject(content[m]));
  for (const other of Object.keys(content)) {
    if (other !== mediaType) unsupported.push(`${where}: request body media type ${other} (only JSON and form bodies are imported)`);
  }
  if (!mediaType) return [];
  const schema = simplify(refs, refs.schema(content[mediaType])?.schema);
  if (!schema || !isObject(schema.properties)) {
    unsupported.push(`${where}: the ${mediaType} body is not an object with named properties`);
    return [];
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).flatMap(([name, property]) => {
    const parameter = toParameter(refs, name, property, required.has(name), where, unsupported);
    return parameter ? [parameter] : [];
  });
}

function queryParameters(
  refs: References,
  operation: Schema,
  shared: unknown[],
  where: string,
  unsupported: string[],
): EndpointParameter[] {
  const all = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
    .map((parameter) => refs.schema(parameter))
    .filter(isObject);
  const out: EndpointParameter[] = [];
  for (const parameter of all) {
    const name = String(parameter.name ?? '');
    if (parameter.in !== 'query') {
      unsupported.push(`${where}: ${String(parameter.in)} parameter "${name}" (only query parameters and bodies are imported)`);
      continue;
    }
    const schema = { ...refs.schema(parameter.schema) };
    if (typeof parameter.description === 'string') schema.description = parameter.description;
    const converted = toParameter(refs, name, schema, parameter.required === true, where, unsupported);
    if (converted) out.push(converted);
  }
  return out;
}

/** The output type from the success response's media type. */
export function outputTypeOf(mediaType: string): OutputType {
  const type = mediaType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('model/')) return 'mesh';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/')) return 'text';
  return 'file';
}

/**
 * An endpoint's run time limit from `x-limelight-time-limit-s`, which limelight.serve writes for
 * `@app.endpoint(..., time_limit_s=N)` (docs/publishing.md): whole seconds within 1–3600.
 */
function timeLimitOf(operation: Schema): number | undefined {
  const value = operation['x-limelight-time-limit-s'];
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return Math.min(3600, Math.max(1, Math.ceil(value)));
}

function outputOf(refs: References, operation: Schema): ServiceEndpoint['output'] {
  const responses = refs.schema(operation.responses) ?? {};
  const success = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  const content = success ? refs.schema(responses[success])?.content : undefined;
  const mediaTypes = isObject(content) ? Object.keys(content) : [];
  if (mediaTypes.length === 0) return { type: 'json' };
  const streaming = mediaTypes.includes('text/event-stream');
  const primary = mediaTypes.find((m) => m !== 'text/event-stream') ?? 'text/plain';
  return { type: streaming && primary === 'text/plain' ? 'text' : outputTypeOf(primary), ...(streaming ? { streaming: true } : {}) };
}

/** Turns an OpenAPI 3 document into endpoints, listing what it could not import. */
export function endpointsFromOpenApi(document: Schema): ImportResult {
  const refs = new References(document);
  const endpoints: ServiceEndpoint[] = [];
  const unsupported: string[] = [];
  for (const [path, raw] of Object.entries(document.paths as Schema)) {
    const item = refs.schema(raw);
    if (!item) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = refs.schema(item[method]);
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (method !== 'get' && method !== 'post') {
        unsupported.push(`${where}: method ${method.toUpperCase()} (endpoints are GET or POST)`);
        continue;
      }
      if (/\{[^}]+\}/.test(path)) {
        unsupported.push(`${where}: path templates such as ${path.match(/\{[^}]+\}/)![0]} (an endpoint has a fixed path)`);
        continue;
      }
      const parameters = [
        ...queryParameters(refs, operation, shared, where, unsupported),
        ...bodyParameters(refs, operation, where, unsupported),
      ];
      const description = [operation.summary, operation.description].find((d): d is string => typeof d === 'string' && d.trim() !== '');
      const timeLimit = timeLimitOf(operation);
      endpoints.push({
        method: method === 'get' ? 'GET' : 'POST',
        path,
        ...(description ? { description: description.trim() } : {}),
        parameters,
        output: outputOf(refs, operation),
        ...(timeLimit ? { time_limit_s: timeLimit } : {}),
      });
    }
  }
  if (endpoints.length === 0 && unsupported.length === 0) unsupported.push('The document has no operations');
  return { endpoints, unsupported };
}

/** Check, then convert: the whole import of one document, refused when its result is too large. */
export async function importOpenApi(document: unknown): Promise<ImportResult> {
  const result = endpointsFromOpenApi(checkOpenApiDocument(document));
  const size = Buffer.byteLength(JSON.stringify(result.endpoints));
  if (size > MAX_IMPORT_RESULT_BYTES) {
    throw new OpenApiImportError(
      `The imported endpoints would take ${size} bytes of JSON (${result.endpoints.length} endpoints); at most ${MAX_IMPORT_RESULT_BYTES} bytes can be imported`,
    );
  }
  return result;
}
