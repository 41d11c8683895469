// Per-service types from the services' OpenAPI documents (GET /v1/services/{id}/openapi.json):
// a declaration file that fills the ServiceTypes map, so client.run() checks each endpoint's
// input and knows its output. Used by the limelight-types CLI (cli.ts); pure, so it is tested
// without a file system.

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  'x-lime-file'?: boolean;
};

interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Operation {
  'x-lime-endpoint'?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

function comment(schema: Schema, indent: string): string {
  const facts = [
    schema.description,
    schema.default !== undefined ? `@default ${JSON.stringify(schema.default)}` : '',
    schema.minimum !== undefined ? `@minimum ${schema.minimum}` : '',
    schema.maximum !== undefined ? `@maximum ${schema.maximum}` : '',
  ].filter(Boolean);
  return facts.length ? `${indent}/** ${facts.join(' ').replace(/\*\//g, '*\\/')} */\n` : '';
}

function typeOf(schema: Schema, schemas: Record<string, Schema>, mode: 'input' | 'output', indent: string): string {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    if (name === 'FileRef') return mode === 'output' ? 'OutputFile' : 'FileRef';
    return typeOf(schemas[name] ?? {}, schemas, mode, indent);
  }
  if (schema['x-lime-file']) return 'string | FileInput';
  if (schema.enum?.length) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(s, schemas, mode, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `Array<${schema.items ? typeOf(schema.items, schemas, mode, indent) : 'unknown'}>`;
    case 'object': {
      const inner = `${indent}  `;
      const required = new Set(schema.required ?? []);
      const lines = Object.entries(schema.properties ?? {}).map(
        ([name, property]) =>
          `${comment(property, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, schemas, mode, inner)};`,
      );
      if (schema.additionalProperties !== false && (mode === 'output' || schema.additionalProperties))
        lines.push(`${inner}[key: string]: unknown;`);
      return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, unknown>';
    }
    default:
      return 'unknown';
  }
}

/** The input and output schema of each run operation of a service document, by endpoint path. */
export function endpointsOf(document: OpenApiDocument): { endpoint: string; summary?: string; input: Schema; output: Schema }[] {
  const schemas = document.components?.schemas ?? {};
  const out = [];
  for (const item of Object.values(document.paths ?? {})) {
    const operation = item.post;
    const endpoint = operation?.['x-lime-endpoint'];
    if (!operation || !endpoint) continue;
    const input = operation.requestBody?.content['application/json']?.schema.properties?.input ?? {};
    const job = operation.responses?.['201']?.content?.['application/json']?.schema ?? {};
    const typed = job.$ref ? schemas[refName(job.$ref)] : job;
    const output = typed?.allOf?.[1]?.properties?.result?.anyOf?.[0] ?? {};
    out.push({ endpoint, summary: operation.summary, input, output });
  }
  return out;
}

/** The declaration file for these services' documents (by service id). */
export function generateTypes(documents: Record<string, OpenApiDocument>, generator = 'limelight-types'): string {
  const services = Object.entries(documents).map(([serviceId, document]) => {
    const schemas = document.components?.schemas ?? {};
    const endpoints = endpointsOf(document).map(({ endpoint, summary, input, output }) => {
      const indent = '      ';
      return [
        summary ? `${indent}/** ${summary.replace(/\*\//g, '*\\/')} */` : '',
        `${indent}${JSON.stringify(endpoint)}: {`,
        `${indent}  input: ${typeOf(input, schemas, 'input', `${indent}  `)};`,
        `${indent}  output: ${typeOf(output, schemas, 'output', `${indent}  `)};`,
        `${indent}};`,
      ]
        .filter(Boolean)
        .join('\n');
    });
    return `    ${JSON.stringify(serviceId)}: {\n${endpoints.join('\n')}\n    };`;
  });
  return [
    `// Generated by ${generator}: do not edit; run it again when a service changes (docs/sdk.md).`,
    "import type { FileInput, FileRef, OutputFile } from '@limelight/client';",
    '',
    "declare module '@limelight/client' {",
    '  interface ServiceTypes {',
    ...services,
    '  }',
    '}',
    '',
    '// Keeps FileRef referenced for endpoints whose inputs name it.',
    'export type { FileRef };',
    '',
  ].join('\n');
}
