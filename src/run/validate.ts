import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import type { EndpointParameter, FieldError, ServiceEndpoint } from '../api/types';
import { dataUriSize, isFileUrl, MAX_DATA_URI_BYTES, parseDataUri } from './files';
import { parameterSchema, type JsonSchema } from './schema';

// Validates a job's input against its endpoint's parameters: one FieldError per bad field, the
// same sentences on the server (422) and in the widget's form. @cfworker/json-schema interprets
// the schema without eval, so this also runs under a strict Content-Security-Policy.

/** The result of `validateJobInput`: the checked input, or the failures by field. */
export type InputValidation = { valid: true; value: Record<string, unknown> } | { valid: false; errors: FieldError[] };

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const ONE_MB = MAX_DATA_URI_BYTES / (1024 * 1024);

/** The sentence for a broken rule; `schema` is the schema of the value at fault. */
function messageFor(name: string, rule: string, schema: JsonSchema): string {
  switch (rule) {
    case 'required':
      return `${name} is required`;
    case 'unknown':
      return `${name} is not a parameter of this endpoint`;
    case 'type':
      return `${name} must be ${schema['x-lime-file'] ? 'a file' : (TYPE_WORDS[schema.type ?? ''] ?? schema.type)}`;
    case 'minimum':
      return `${name} must be at least ${schema.minimum}`;
    case 'maximum':
      return `${name} must be at most ${schema.maximum}`;
    case 'step':
      return `${name} must be a multiple of ${schema.multipleOf}`;
    case 'enum':
      return `${name} must be one of: ${(schema.enum ?? []).join(', ')}`;
    case 'file':
      return `${name} must be a file URL (as POST /v1/files returns) or a data: URI`;
    case 'size':
      return `${name} is larger than ${ONE_MB} MB inline; upload it with POST /v1/files and pass its URL`;
    default:
      return `${name} is not valid`;
  }
}

const RULE_OF_KEYWORD: Record<string, string> = {
  type: 'type',
  minimum: 'minimum',
  maximum: 'maximum',
  multipleOf: 'step',
  enum: 'enum',
};

interface CompiledParameter {
  parameter: EndpointParameter;
  schema: JsonSchema;
  validator: Validator;
}

// Keyed by the parameters' JSON: the server reads a fresh endpoint object per request, and the
// same parameters must not be compiled again each time. Bounded, oldest entry dropped first.
const compiled = new Map<string, Map<string, CompiledParameter>>();
const MAX_COMPILED = 200;

function compile(endpoint: Pick<ServiceEndpoint, 'parameters'>): Map<string, CompiledParameter> {
  const key = JSON.stringify(endpoint.parameters);
  let byName = compiled.get(key);
  if (!byName) {
    byName = new Map();
    for (const parameter of endpoint.parameters) {
      const schema = parameterSchema(parameter);
      byName.set(parameter.name, { parameter, schema, validator: new Validator(schema as Schema, '2020-12', false) });
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, byName);
  }
  return byName;
}

/** `#/0/1` -> `name.0.1` */
const fieldName = (name: string, instanceLocation: string) =>
  [name, ...instanceLocation.replace(/^#\/?/, '').split('/').filter(Boolean)].join('.');

/** The schema at an instance location (only array items nest here). */
const schemaAt = (schema: JsonSchema, instanceLocation: string) => (instanceLocation.replace(/^#\/?/, '') ? (schema.items ?? {}) : schema);

function schemaError(entry: CompiledParameter, units: OutputUnit[]): FieldError | undefined {
  // The validator reports the failing keyword and every enclosing one; the leaf names the rule.
  const leaf = units.find((unit) => RULE_OF_KEYWORD[unit.keyword]);
  if (!leaf) return units.length ? fieldError(entry.parameter.name, 'invalid', entry.schema) : undefined;
  const rule = RULE_OF_KEYWORD[leaf.keyword]!;
  return fieldError(fieldName(entry.parameter.name, leaf.instanceLocation), rule, schemaAt(entry.schema, leaf.instanceLocation));
}

function fieldError(name: string, rule: string, schema: JsonSchema): FieldError {
  return { name, rule, message: messageFor(name, rule, schema) };
}

/** File inputs: a URL or a data: URI no larger than the inline limit. */
function fileError(name: string, value: unknown, schema: JsonSchema): FieldError | undefined {
  if (typeof value !== 'string') return undefined;
  const dataUri = parseDataUri(value);
  if (dataUri) return dataUriSize(dataUri) > MAX_DATA_URI_BYTES ? fieldError(name, 'size', schema) : undefined;
  return isFileUrl(value) ? undefined : fieldError(name, 'file', schema);
}

function fileErrors(entry: CompiledParameter, value: unknown): FieldError | undefined {
  const { parameter, schema } = entry;
  if (parameter.type === 'file') return fileError(parameter.name, value, schema);
  if (parameter.type === 'array' && parameter.items?.type === 'file' && Array.isArray(value)) {
    for (const [i, element] of value.entries()) {
      const error = fileError(`${parameter.name}.${i}`, element, schema.items ?? schema);
      if (error) return error;
    }
  }
  return undefined;
}

/**
 * Checks `input` against the endpoint's parameters. On success `value` is the input with the
 * defaults of omitted parameters filled in (what the job stores and the runtime receives).
 * `null` counts as omitted.
 */
export function validateJobInput(endpoint: Pick<ServiceEndpoint, 'parameters'>, input: unknown): InputValidation {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { valid: false, errors: [{ name: 'input', rule: 'type', message: 'input must be an object of parameter values' }] };
  }
  const byName = compile(endpoint);
  const given = input as Record<string, unknown>;
  const errors: FieldError[] = [];
  const value: Record<string, unknown> = {};

  for (const [name, entry] of byName) {
    const raw = given[name];
    if (raw === undefined || raw === null) {
      if (entry.parameter.default !== undefined) value[name] = entry.parameter.default;
      else if (entry.parameter.required) errors.push(fieldError(name, 'required', entry.schema));
      continue;
    }
    // An empty list gives a required list parameter nothing to work on: it counts as missing.
    if (entry.parameter.required && Array.isArray(raw) && raw.length === 0) {
      errors.push(fieldError(name, 'required', entry.schema));
      continue;
    }
    const error = schemaError(entry, entry.validator.validate(raw).errors) ?? fileErrors(entry, raw);
    if (error) errors.push(error);
    else value[name] = raw;
  }
  for (const name of Object.keys(given)) {
    if (!byName.has(name)) errors.push(fieldError(name, 'unknown', {}));
  }
  return errors.length ? { valid: false, errors } : { valid: true, value };
}

/** `prompt is required; width must be at most 2048`: the 422 detail, in parameter order. */
export const describeFieldErrors = (errors: readonly FieldError[]) => errors.map((e) => e.message).join('; ');
