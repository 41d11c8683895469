import { Validator, type Schema } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import type { ServiceEndpoint } from '../../../src/api';
import { endpointInputSchema } from '../../../src/run';
import { parameterSchema } from '../../../src/run/schema';

const endpoint: ServiceEndpoint = {
  method: 'POST',
  path: '/generate',
  parameters: [
    { name: 'prompt', type: 'string', required: true, description: 'What to draw' },
    { name: 'width', type: 'integer', required: false, default: 1024, minimum: 64, maximum: 2048, step: 64 },
    { name: 'style', type: 'string', required: false, enum: ['photo', 'sketch'] },
    { name: 'image', type: 'file', required: false },
    { name: 'tags', type: 'array', required: false, items: { type: 'string' } },
    { name: 'loose', type: 'array', required: false },
  ],
};

describe('endpointInputSchema', () => {
  it('maps every parameter to a property, lists the required ones and refuses unknown fields', () => {
    const schema = endpointInputSchema(endpoint);
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties!)).toEqual(['prompt', 'width', 'style', 'image', 'tags', 'loose']);
    expect(schema.required).toEqual(['prompt']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('carries bounds, step, enum, default and description into the property schema', () => {
    expect(parameterSchema(endpoint.parameters[1]!)).toEqual({
      type: 'integer',
      title: 'width',
      default: 1024,
      minimum: 64,
      maximum: 2048,
      multipleOf: 64,
    });
    expect(parameterSchema(endpoint.parameters[2]!).enum).toEqual(['photo', 'sketch']);
    expect(parameterSchema(endpoint.parameters[0]!).description).toBe('What to draw');
  });

  it('describes files as URI strings marked as files, and array elements by their type', () => {
    expect(parameterSchema(endpoint.parameters[3]!)).toMatchObject({ type: 'string', format: 'uri-reference', 'x-lime-file': true });
    expect(parameterSchema(endpoint.parameters[4]!).items).toEqual({ type: 'string' });
    expect(parameterSchema(endpoint.parameters[5]!).items).toEqual({});
  });

  it('is a schema a standard validator accepts and applies', () => {
    const validator = new Validator(endpointInputSchema(endpoint) as Schema, '2020-12');
    expect(validator.validate({ prompt: 'a cat', width: 128 }).valid).toBe(true);
    expect(validator.validate({ width: 128 }).valid).toBe(false);
    expect(validator.validate({ prompt: 'a cat', width: 100 }).valid).toBe(false);
    expect(validator.validate({ prompt: 'a cat', colour: 'red' }).valid).toBe(false);
  });
});
