import type { EndpointParameter, ServiceEndpoint } from '../api/types';

// Endpoint parameters -> JSON Schema (2020-12). One schema drives the server's validation, the
// widget's form and the OpenAPI description, so a rule is written once.

/** The JSON Schema subset an endpoint's input schema uses. */
export interface JsonSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  multipleOf?: number;
  enum?: Array<string | number>;
  items?: JsonSchema;
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  /** Ours: marks a file input (a stored-file URL or a data: URI). */
  'x-lime-file'?: true;
}

/** A file input is given as a URL (`/v1/files` answers one) or a data: URI. */
const fileSchema = (): JsonSchema => ({ type: 'string', format: 'uri-reference', 'x-lime-file': true });

function elementSchema(type: NonNullable<EndpointParameter['items']>['type']): JsonSchema {
  return type === 'file' ? fileSchema() : { type };
}

/** The schema of one parameter's value. */
export function parameterSchema(parameter: EndpointParameter): JsonSchema {
  const schema: JsonSchema = parameter.type === 'file' ? fileSchema() : { type: parameter.type };
  schema.title = parameter.name;
  if (parameter.description) schema.description = parameter.description;
  if (parameter.default !== undefined) schema.default = parameter.default;
  if (parameter.minimum !== undefined) schema.minimum = parameter.minimum;
  if (parameter.maximum !== undefined) schema.maximum = parameter.maximum;
  if (parameter.step !== undefined && parameter.step > 0) schema.multipleOf = parameter.step;
  if (parameter.enum?.length) schema.enum = [...parameter.enum];
  if (parameter.type === 'array') schema.items = parameter.items ? elementSchema(parameter.items.type) : {};
  return schema;
}

/** The schema of an endpoint's whole input object; unknown fields are refused. */
export function endpointInputSchema(endpoint: Pick<ServiceEndpoint, 'parameters'>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of endpoint.parameters) properties[parameter.name] = parameterSchema(parameter);
  return {
    type: 'object',
    properties,
    required: endpoint.parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
}
