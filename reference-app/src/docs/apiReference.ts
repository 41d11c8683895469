import { slugify } from './render';
import type { ApiGroup, ApiOperation, ApiParameter, ApiReference, SchemaField } from './types';

// The API reference at /docs/api, generated from the platform's own OpenAPI document
// (/v1/openapi.json, built from the routes' zod schemas: docs/architecture.md, "The wire
// contract"), so it lists exactly the routes the server has: grouped by tag, each with its
// parameters, request and response bodies as nested field lists, error statuses and samples in
// cURL, Python (standard library) and JavaScript (fetch). Pure: document in, reference out.

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  description?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  const?: unknown;
  minimum?: number;
  format?: string;
};

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface RawOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  security?: Record<string, unknown>[];
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
export interface OpenApiDocument {
  info?: { title?: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
/** Nesting shown before a field says only its type (schemas may refer to themselves). */
const MAX_DEPTH = 4;
const API_KEY_ENV = 'LIMELIGHT_API_KEY';

/** The operations of a document as `METHOD /path`, in the document's order. */
export function operationsOf(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** An operation's anchor: its method and path (stable, readable, unique in a document). */
export const operationAnchor = (method: string, path: string) =>
  slugify(`${method} ${path.replace(/[{}]/g, '').replace(/\//g, ' ')}`).replace(/-+/g, '-');

function resolver(doc: OpenApiDocument) {
  const schemas = doc.components?.schemas ?? {};
  return (schema: Schema | undefined): Schema | undefined => {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 10; hops++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = { ...schemas[name], ...(current.description ? { description: current.description } : {}) };
    }
    return current;
  };
}

/** Not the `null` of a nullable union. */
const notNull = (s: Schema) => s.type !== 'null';

function typeName(schema: Schema | undefined, resolve: ReturnType<typeof resolver>): string {
  const s = resolve(schema);
  if (!s) return 'any';
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const names = [...new Set(union.map((u) => typeName(u, resolve)))];
    return names.join(' | ');
  }
  if (s.allOf?.length === 1) return typeName(s.allOf[0], resolve);
  if (s.const !== undefined) return JSON.stringify(s.const);
  const type = Array.isArray(s.type) ? s.type.join(' | ') : s.type;
  if (type === 'array') return `array of ${typeName(s.items, resolve)}`;
  if (type) return s.format ? `${type} (${s.format})` : type;
  if (s.properties) return 'object';
  if (s.enum) return 'enum';
  return 'any';
}

/** The object (or list of objects) under a schema, for its nested fields. */
function objectOf(schema: Schema | undefined, resolve: ReturnType<typeof resolver>, depth = 0): Schema | undefined {
  const s = resolve(schema);
  if (!s || depth > 5) return undefined;
  if (s.properties) return s;
  if (s.allOf) {
    const parts = s.allOf.map((p) => objectOf(p, resolve, depth + 1)).filter((p): p is Schema => Boolean(p));
    if (parts.length) {
      return { properties: Object.assign({}, ...parts.map((p) => p.properties)), required: parts.flatMap((p) => p.required ?? []) };
    }
  }
  const union = (s.anyOf ?? s.oneOf)?.filter(notNull);
  if (union?.length === 1) return objectOf(union[0], resolve, depth + 1);
  if (s.type === 'array' || s.items) return objectOf(s.items, resolve, depth + 1);
  return undefined;
}

function fieldsOf(schema: Schema | undefined, resolve: ReturnType<typeof resolver>, depth = 0): SchemaField[] {
  const object = objectOf(schema, resolve);
  if (!object?.properties || depth >= MAX_DEPTH) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).map(([name, raw]) => {
    const s = resolve(raw) ?? {};
    const values = (s.enum ?? (s.anyOf ?? s.oneOf)?.flatMap((u) => resolve(u)?.enum ?? []))?.filter((v) => v !== null).map(String);
    const nested = fieldsOf(raw, resolve, depth + 1);
    return {
      name,
      type: typeName(raw, resolve),
      required: required.has(name),
      ...(s.description ? { description: s.description } : {}),
      ...(values?.length ? { values } : {}),
      ...(nested.length ? { fields: nested } : {}),
    };
  });
}

/** A body that passes validation: examples and defaults where the schema has them, else a value of each required field's type. */
function exampleOf(schema: Schema | undefined, resolve: ReturnType<typeof resolver>, depth = 0): unknown {
  const s = resolve(schema);
  if (!s || depth > MAX_DEPTH) return null;
  if (s.example !== undefined) return s.example;
  if (s.examples?.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? null;
  const union = (s.anyOf ?? s.oneOf)?.filter(notNull);
  if (union?.length) return exampleOf(union[0], resolve, depth + 1);
  const object = objectOf(s, resolve);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array') return [exampleOf(s.items, resolve, depth + 1)];
  if (object?.properties) {
    const required = new Set(object.required ?? []);
    const names = Object.keys(object.properties).filter((name) => required.has(name));
    return Object.fromEntries(names.map((name) => [name, exampleOf(object.properties![name], resolve, depth + 1)]));
  }
  if (type === 'object' || s.additionalProperties) return {};
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'string')
    return s.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : s.format === 'email' ? 'you@example.com' : 'string';
  return null;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** JSON value as a Python literal (True/False/None), indented like json.dumps(indent=4). */
function toPython(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent + 4);
  const end = ' '.repeat(indent);
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${pad}${toPython(v, indent + 4)}`).join(',\n')},\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${toPython(v, indent + 4)}`).join(',\n')},\n${end}}`;
}

function samplesOf(method: string, url: string, auth: ApiOperation['auth'], body: unknown, hasBody: boolean): ApiOperation['samples'] {
  const M = method.toUpperCase();
  const json = hasBody ? JSON.stringify(body) : null;
  const curl = [
    ...(auth !== 'none' ? [`# export ${API_KEY_ENV}=<your API key>   (Account > API keys)`] : []),
    `curl -sS -X ${M} ${shellQuote(url)}${auth !== 'none' || json ? ' \\' : ''}`,
    ...(auth !== 'none' ? [`  -H "Authorization: Bearer $${API_KEY_ENV}"${json ? ' \\' : ''}`] : []),
    ...(json ? [`  -H 'Content-Type: application/json' \\`, `  -d ${shellQuote(json)}`] : []),
  ].join('\n');

  const headers = [
    ...(auth !== 'none' ? [`"Authorization": f"Bearer {os.environ['${API_KEY_ENV}']}"`] : []),
    ...(json ? ['"Content-Type": "application/json"'] : []),
  ];
  const python = `import json
${auth !== 'none' ? 'import os\n' : ''}import urllib.request

request = urllib.request.Request(
    ${JSON.stringify(url)},
    method=${JSON.stringify(M)},
    headers={${headers.join(', ')}},${json ? `\n    data=json.dumps(${toPython(body, 4)}).encode(),` : ''}
)
with urllib.request.urlopen(request) as response:
    print(json.load(response))
`;

  const jsHeaders = [
    ...(auth !== 'none' ? [`Authorization: \`Bearer \${process.env.${API_KEY_ENV}}\``] : []),
    ...(json ? [`'Content-Type': 'application/json'`] : []),
  ];
  const javascript = `const response = await fetch(${JSON.stringify(url)}, {
  method: ${JSON.stringify(M)},
  headers: { ${jsHeaders.join(', ')} },${json ? `\n  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),` : ''}
});
console.log(response.status, await response.json());
`;
  return { curl, python, javascript };
}

function authOf(security: RawOperation['security']): ApiOperation['auth'] {
  if (!security?.length) return 'none';
  return security.some((s) => Object.keys(s).length === 0) ? 'optional' : 'required';
}

/** The reference of a whole document. */
export function buildApiReference(doc: OpenApiDocument): ApiReference {
  const resolve = resolver(doc);
  const baseUrl = (doc.servers?.[0]?.url ?? '/v1').replace(/\/+$/, '');
  const groups = new Map<string, ApiGroup>();
  for (const tag of doc.tags ?? [])
    groups.set(tag.name, { tag: tag.name, id: slugify(tag.name), description: tag.description, operations: [] });

  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      const group = groups.get(tag) ?? { tag, id: `tag-${slugify(tag)}`, operations: [] };
      groups.set(tag, group);
      const parameters: ApiParameter[] = (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        type: typeName(p.schema, resolve),
        required: p.required === true || p.in === 'path',
        ...((p.description ?? resolve(p.schema)?.description) ? { description: p.description ?? resolve(p.schema)?.description } : {}),
      }));
      const [contentType, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const requestBody = contentType
        ? { contentType, required: op.requestBody?.required === true, fields: fieldsOf(media?.schema, resolve) }
        : null;
      const responses = Object.entries(op.responses ?? {}).map(([status, response]) => ({
        status,
        description: response.description ?? '',
        fields: fieldsOf(Object.values(response.content ?? {})[0]?.schema, resolve),
      }));
      // Path parameters as placeholders the reader replaces (JOB_ID), query parameters only when required.
      const filledPath = path.replace(/\{([^}]+)\}/g, (_, name: string) => name.toUpperCase());
      const query = parameters
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => `${encodeURIComponent(p.name)}=${p.name.toUpperCase()}`)
        .join('&');
      const url = `${baseUrl}${filledPath}${query ? `?${query}` : ''}`;
      const auth = authOf(op.security);
      const isJson = contentType === 'application/json';
      const body = isJson ? exampleOf(media?.schema, resolve) : undefined;
      group.operations.push({
        id: operationAnchor(method, path),
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
        ...(op.description ? { description: op.description } : {}),
        auth,
        parameters,
        requestBody,
        responses,
        samples: samplesOf(method, url, auth, body, isJson),
      });
    }
  }
  return {
    title: doc.info?.title ?? 'API reference',
    ...(doc.info?.description ? { description: doc.info.description } : {}),
    baseUrl,
    groups: [...groups.values()].filter((g) => g.operations.length > 0),
  };
}
