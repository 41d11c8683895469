import $RefParser from '@apidevtools/json-schema-ref-parser';
import type { EndpointParameter, ServiceEndpoint } from '@limelight/widgets/api';

// Endpoint import: an OpenAPI 3 document (as FastAPI and similar frameworks serve it at
// /openapi.json) becomes the service's endpoints. $ref pointers are resolved by a maintained
// dereferencer (internal pointers only: an imported document never makes the server fetch other
// URLs). Whatever cannot be expressed as an endpoint parameter is listed back to the user, never
// dropped silently.

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
const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'] as const;
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean', 'array', 'object']);

/** Resolves every internal $ref; refuses documents that are not OpenAPI 3. */
export async function dereferenceOpenApi(document: unknown): Promise<Schema> {
  if (!isObject(document)) throw new OpenApiImportError('The document is not a JSON object');
  const version = document.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    const swagger = typeof document.swagger === 'string' ? ` (found swagger ${document.swagger})` : '';
    throw new OpenApiImportError(`Only OpenAPI 3.0 and 3.1 documents can be imported${swagger}: the "openapi" field is missing or not 3.x`);
  }
  if (!isObject(document.paths)) throw new OpenApiImportError('The document has no "paths" object');
  try {
    // structuredClone: the dereferencer mutates its input; circular schemas stay as shared objects.
    return (await $RefParser.dereference(structuredClone(document), {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    })) as Schema;
  } catch (error) {
    throw new OpenApiImportError(`The document's $ref pointers cannot be resolved: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * FastAPI writes `Optional[X]` as `anyOf: [X, {type: null}]` and enum fields as
 * `allOf: [{$ref}]`: both reduce to X. Returns undefined for a union this model cannot express.
 */
function simplify(schema: Schema): Schema | undefined {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const nonNull = options.filter((o) => isObject(o) && o.type !== 'null');
      if (nonNull.length !== 1) return undefined;
      const { [key]: _dropped, ...rest } = schema;
      return simplify({ ...(nonNull[0] as Schema), ...rest });
    }
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return simplify(Object.assign({}, ...(allOf as Schema[]).filter(isObject), rest) as Schema);
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

function toParameter(name: string, raw: unknown, required: boolean, where: string, unsupported: string[]): EndpointParameter | undefined {
  const schema = isObject(raw) ? simplify(raw) : undefined;
  if (!schema) {
    unsupported.push(`${where}: parameter "${name}" has a union type (anyOf/oneOf of several types)`);
    return undefined;
  }
  let type = parameterType(schema);
  if (type === 'array' && isObject(schema.items)) {
    const items = simplify(schema.items);
    if (items && parameterType(items) === 'file') type = 'file';
  }
  if (!type) {
    unsupported.push(`${where}: parameter "${name}" has an unsupported schema (type ${JSON.stringify(schema.type ?? 'missing')})`);
    return undefined;
  }
  const parameter: EndpointParameter = { name, type, required };
  const description =
    typeof schema.description === 'string' ? schema.description : typeof schema.title === 'string' ? schema.title : undefined;
  if (description) parameter.description = description;
  if (schema.default !== undefined) parameter.default = schema.default;
  if (Array.isArray(schema.enum)) parameter.enum = schema.enum.filter((v) => v !== null) as (string | number)[];
  const minimum =
    typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const maximum =
    typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  if (minimum !== undefined) parameter.minimum = minimum;
  if (maximum !== undefined) parameter.maximum = maximum;
  if (typeof schema.multipleOf === 'number') parameter.step = schema.multipleOf;
  if (type === 'array' && isObject(schema.items)) {
    const items = simplify(schema.items);
    const itemType = items && parameterType(items);
    if (itemType && itemType !== 'array' && itemType !== 'file') parameter.items = { type: itemType };
  }
  return parameter;
}

function bodyParameters(operation: Schema, where: string, unsupported: string[]): EndpointParameter[] {
  const body = isObject(operation.requestBody) ? operation.requestBody : undefined;
  if (!body || !isObject(body.content)) return [];
  const content = body.content;
  const mediaType = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'].find((m) => isObject(content[m]));
  for (const other of Object.keys(content)) {
    if (other !== mediaType) unsupported.push(`${where}: request body media type ${other} (only JSON and form bodies are imported)`);
  }
  if (!mediaType) return [];
  const raw = (content[mediaType] as Schema).schema;
  const schema = isObject(raw) ? simplify(raw) : undefined;
  if (!schema || !isObject(schema.properties)) {
    unsupported.push(`${where}: the ${mediaType} body is not an object with named properties`);
    return [];
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(schema.properties).flatMap(([name, property]) => {
    const parameter = toParameter(name, property, required.has(name), where, unsupported);
    return parameter ? [parameter] : [];
  });
}

function queryParameters(operation: Schema, shared: unknown[], where: string, unsupported: string[]): EndpointParameter[] {
  const all = [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])].filter(isObject);
  const out: EndpointParameter[] = [];
  for (const parameter of all) {
    const name = String(parameter.name ?? '');
    if (parameter.in !== 'query') {
      unsupported.push(`${where}: ${String(parameter.in)} parameter "${name}" (only query parameters and bodies are imported)`);
      continue;
    }
    const schema = isObject(parameter.schema) ? { ...parameter.schema } : {};
    if (typeof parameter.description === 'string') schema.description = parameter.description;
    const converted = toParameter(name, schema, parameter.required === true, where, unsupported);
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

function outputOf(operation: Schema): ServiceEndpoint['output'] {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const success = Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
  const content = success && isObject(responses[success]) ? (responses[success] as Schema).content : undefined;
  const mediaTypes = isObject(content) ? Object.keys(content) : [];
  if (mediaTypes.length === 0) return { type: 'json' };
  const streaming = mediaTypes.includes('text/event-stream');
  const primary = mediaTypes.find((m) => m !== 'text/event-stream') ?? 'text/plain';
  return { type: streaming && primary === 'text/plain' ? 'text' : outputTypeOf(primary), ...(streaming ? { streaming: true } : {}) };
}

/** Turns a dereferenced OpenAPI 3 document into endpoints, listing what it could not import. */
export function endpointsFromOpenApi(document: Schema): ImportResult {
  const endpoints: ServiceEndpoint[] = [];
  const unsupported: string[] = [];
  for (const [path, item] of Object.entries(document.paths as Schema)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (method !== 'get' && method !== 'post') {
        unsupported.push(`${where}: method ${method.toUpperCase()} (endpoints are GET or POST)`);
        continue;
      }
      if (/\{[^}]+\}/.test(path)) {
        unsupported.push(`${where}: path templates such as ${path.match(/\{[^}]+\}/)![0]} (an endpoint has a fixed path)`);
        continue;
      }
      const parameters = [...queryParameters(operation, shared, where, unsupported), ...bodyParameters(operation, where, unsupported)];
      const description = [operation.summary, operation.description].find((d): d is string => typeof d === 'string' && d.trim() !== '');
      endpoints.push({
        method: method === 'get' ? 'GET' : 'POST',
        path,
        ...(description ? { description: description.trim() } : {}),
        parameters,
        output: outputOf(operation),
      });
    }
  }
  if (endpoints.length === 0 && unsupported.length === 0) unsupported.push('The document has no operations');
  return { endpoints, unsupported };
}

/** Dereference, then convert: the whole import of one document. */
export async function importOpenApi(document: unknown): Promise<ImportResult> {
  return endpointsFromOpenApi(await dereferenceOpenApi(document));
}
