import type { FieldError } from '../../api/types';

/**
 * The runner's form, as data: which control each input gets, its draft value while the user
 * types, and the job input built from the drafts. Pure functions, no React, so every rule is
 * tested without a browser. The form is generated from the endpoint's JSON Schema (see
 * `src/run/`, which derives it from the endpoint's parameters and also validates the input).
 */

/** The subset of JSON Schema the form reads. */
export interface PropertySchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  contentMediaType?: string;
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
  required?: readonly string[];
  /** Set on file inputs: an URL from POST /v1/files or a data: URI. */
  'x-lime-file'?: boolean;
}

export interface ObjectSchema {
  type?: string;
  properties?: Record<string, PropertySchema>;
  required?: readonly string[];
}

export type FieldKind = 'text' | 'textarea' | 'number' | 'integer' | 'boolean' | 'enum' | 'file' | 'messages' | 'list' | 'json';

/** One form field derived from an endpoint's JSON Schema: its name, label, kind and constraints. */
export interface FieldSpec {
  name: string;
  kind: FieldKind;
  label: string;
  description?: string;
  required: boolean;
  schema: PropertySchema;
  /** Number inputs: bounds and step from the schema. */
  min?: number;
  max?: number;
  step?: number | 'any';
  /** Enum options, in schema order. */
  options?: readonly unknown[];
  /** File inputs: accepted media types (`accept` attribute), when the schema names them. */
  accept?: string;
}

/** A chat message in the messages editor. */
export interface MessageDraft {
  role: string;
  content: string;
}

/** What a control holds while the user edits it. */
export type DraftValue = string | boolean | string[] | MessageDraft[] | null;
export type Draft = Record<string, DraftValue>;

export const MESSAGE_ROLES = ['system', 'user', 'assistant'] as const;

/** Names that get a multi-line text area even without a length hint. */
const LONG_TEXT = /^(prompt|negative_prompt|text|content|input|query|context|instructions?|system_prompt)$/;

function primaryType(schema: PropertySchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

function isFile(schema: PropertySchema): boolean {
  return schema['x-lime-file'] === true || schema.contentMediaType !== undefined || schema.format === 'uri-reference';
}

function isMessages(name: string, schema: PropertySchema): boolean {
  const item = schema.items;
  if (item?.properties && 'role' in item.properties && 'content' in item.properties) return true;
  const itemType = item ? primaryType(item) : undefined;
  return name === 'messages' && (itemType === undefined || itemType === 'object');
}

/** Human label from a parameter name: `num_inference_steps` -> "Num inference steps". */
export function labelFor(name: string, schema: PropertySchema): string {
  // A title that only repeats the name (as src/run/schema.ts writes it) is no label.
  if (schema.title && schema.title !== name) return schema.title;
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function kindOf(name: string, schema: PropertySchema): FieldKind {
  if (schema.enum && schema.enum.length > 0) return 'enum';
  if (isFile(schema)) return 'file';
  switch (primaryType(schema)) {
    case 'boolean':
      return 'boolean';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'array': {
      if (isMessages(name, schema)) return 'messages';
      // Elements of no declared type are edited as text, one per row.
      const item = (schema.items && primaryType(schema.items)) ?? 'string';
      return item === 'string' || item === 'number' || item === 'integer' ? 'list' : 'json';
    }
    case 'object':
      return 'json';
    default:
      return LONG_TEXT.test(name) || (schema.maxLength ?? 0) > 200 ? 'textarea' : 'text';
  }
}

/** One field per schema property, in schema order. */
export function fieldsFromSchema(schema: ObjectSchema): FieldSpec[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => {
    const kind = kindOf(name, s);
    const field: FieldSpec = { name, kind, label: labelFor(name, s), required: required.has(name), schema: s };
    if (s.description) field.description = s.description;
    if (kind === 'number' || kind === 'integer') {
      const min = s.minimum ?? s.exclusiveMinimum;
      const max = s.maximum ?? s.exclusiveMaximum;
      if (min !== undefined) field.min = min;
      if (max !== undefined) field.max = max;
      field.step = s.multipleOf ?? (kind === 'integer' ? 1 : 'any');
    }
    if (kind === 'enum') field.options = s.enum;
    if (kind === 'file' && s.contentMediaType) field.accept = s.contentMediaType;
    return field;
  });
}

function draftOf(field: FieldSpec, value: unknown): DraftValue {
  switch (field.kind) {
    case 'boolean':
      return value === true;
    case 'messages':
      return Array.isArray(value)
        ? value.map((m) => {
            const o = (m ?? {}) as Record<string, unknown>;
            return { role: typeof o.role === 'string' ? o.role : 'user', content: typeof o.content === 'string' ? o.content : '' };
          })
        : [{ role: 'user', content: '' }];
    case 'list':
      return Array.isArray(value) ? value.map((v) => String(v)) : [];
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
    case 'enum': {
      const index = field.options?.findIndex((o) => o === value) ?? -1;
      return index < 0 ? '' : String(index);
    }
    case 'file':
      return typeof value === 'string' ? value : null;
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** Drafts for every field: the given input where present (a past run), else the schema default. */
export function initialDraft(fields: readonly FieldSpec[], input: Record<string, unknown> = {}): Draft {
  return Object.fromEntries(fields.map((f) => [f.name, draftOf(f, f.name in input ? input[f.name] : f.schema.default)]));
}

export interface BuiltInput {
  input: Record<string, unknown>;
  /** Drafts that cannot become a value of their type at all (e.g. "abc" in a number field). */
  errors: FieldError[];
}

/**
 * The job input from the drafts. Empty optional fields are left out (the server applies the
 * default); required ones are left out too and the schema validator reports them, so a missing
 * field gets the same message on both sides.
 */
export function buildInput(fields: readonly FieldSpec[], draft: Draft, messages: { notANumber: string; notJson: string }): BuiltInput {
  const input: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const field of fields) {
    const value = draft[field.name];
    switch (field.kind) {
      case 'boolean':
        input[field.name] = value === true;
        break;
      case 'number':
      case 'integer': {
        const text = typeof value === 'string' ? value.trim() : '';
        if (text === '') break;
        const n = Number(text);
        if (Number.isFinite(n)) input[field.name] = n;
        else errors.push({ name: field.name, rule: 'type', message: messages.notANumber });
        break;
      }
      case 'enum': {
        const index = typeof value === 'string' && value !== '' ? Number(value) : -1;
        if (index >= 0 && field.options && index < field.options.length) input[field.name] = field.options[index];
        break;
      }
      case 'messages': {
        const list = (Array.isArray(value) ? value : []) as MessageDraft[];
        const kept = list.filter((m) => m.content.trim() !== '');
        if (kept.length > 0 || field.required) input[field.name] = kept;
        break;
      }
      case 'list': {
        const list = ((Array.isArray(value) ? value : []) as string[]).map((v) => v.trim()).filter((v) => v !== '');
        const itemType = (field.schema.items && primaryType(field.schema.items)) ?? 'string';
        const items = itemType === 'number' || itemType === 'integer' ? list.map(Number) : list;
        if (items.some((v) => typeof v === 'number' && !Number.isFinite(v))) {
          errors.push({ name: field.name, rule: 'type', message: messages.notANumber });
        } else if (items.length > 0 || field.required) input[field.name] = items;
        break;
      }
      case 'json': {
        const text = typeof value === 'string' ? value.trim() : '';
        if (text === '') break;
        try {
          input[field.name] = JSON.parse(text) as unknown;
        } catch {
          errors.push({ name: field.name, rule: 'type', message: messages.notJson });
        }
        break;
      }
      case 'file':
        if (typeof value === 'string' && value !== '') input[field.name] = value;
        break;
      default:
        if (typeof value === 'string' && value !== '') input[field.name] = value;
    }
  }
  return { input, errors };
}

/** Field errors by field name, first error wins (the one shown). */
export function errorsByField(errors: readonly FieldError[]): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  for (const e of errors) {
    const name = e.name.replace(/^\/?input[./]?/, '').split(/[./[]/)[0] || e.name;
    out[name] ??= e;
  }
  return out;
}
