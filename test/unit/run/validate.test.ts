import { describe, expect, it } from 'vitest';
import type { ServiceEndpoint } from '../../../src/api';
import { describeFieldErrors, validateJobInput } from '../../../src/run';
import { MAX_DATA_URI_BYTES } from '../../../src/run/files';

const endpoint: ServiceEndpoint = {
  method: 'POST',
  path: '/generate',
  parameters: [
    { name: 'prompt', type: 'string', required: true },
    { name: 'width', type: 'integer', required: false, default: 1024, minimum: 64, maximum: 2048, step: 64 },
    { name: 'guidance', type: 'number', required: false, minimum: 0, maximum: 20 },
    { name: 'style', type: 'string', required: false, enum: ['photo', 'sketch'] },
    { name: 'hd', type: 'boolean', required: false, default: false },
    { name: 'image', type: 'file', required: false },
    { name: 'masks', type: 'array', required: false, items: { type: 'file' } },
    { name: 'seeds', type: 'array', required: false, items: { type: 'integer' } },
    { name: 'options', type: 'object', required: false },
  ],
};

const base64Of = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

describe('validateJobInput', () => {
  it('accepts a valid input and fills the defaults of omitted parameters', () => {
    expect(validateJobInput(endpoint, { prompt: 'a cat', guidance: 7.5 })).toEqual({
      valid: true,
      value: { prompt: 'a cat', width: 1024, guidance: 7.5, hd: false },
    });
  });

  it('treats null as omitted', () => {
    expect(validateJobInput(endpoint, { prompt: 'a cat', width: null })).toEqual({
      valid: true,
      value: { prompt: 'a cat', width: 1024, hd: false },
    });
  });

  it('counts an empty required list as missing, so no job is created for it', () => {
    const chat: ServiceEndpoint = { method: 'POST', path: '/chat', parameters: [{ name: 'messages', type: 'array', required: true }] };
    expect(validateJobInput(chat, { messages: [] })).toEqual({
      valid: false,
      errors: [{ name: 'messages', rule: 'required', message: 'messages is required' }],
    });
    expect(validateJobInput(chat, { messages: [{ role: 'user', content: 'hi' }] }).valid).toBe(true);
    // An optional list may be empty.
    expect(validateJobInput(endpoint, { prompt: 'a cat', seeds: [] }).valid).toBe(true);
  });

  it('reports a missing required field (rule required)', () => {
    expect(validateJobInput(endpoint, {})).toEqual({
      valid: false,
      errors: [{ name: 'prompt', rule: 'required', message: 'prompt is required' }],
    });
  });

  it('reports one error per bad field, in parameter order, unknown fields last', () => {
    const result = validateJobInput(endpoint, {
      colour: 'red',
      prompt: 42,
      width: 4096,
      guidance: -1,
      style: 'oil',
      hd: 'yes',
    });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.errors).toEqual([
      { name: 'prompt', rule: 'type', message: 'prompt must be text' },
      { name: 'width', rule: 'maximum', message: 'width must be at most 2048' },
      { name: 'guidance', rule: 'minimum', message: 'guidance must be at least 0' },
      { name: 'style', rule: 'enum', message: 'style must be one of: photo, sketch' },
      { name: 'hd', rule: 'type', message: 'hd must be true or false' },
      { name: 'colour', rule: 'unknown', message: 'colour is not a parameter of this endpoint' },
    ]);
    expect(describeFieldErrors(result.errors)).toBe(
      'prompt must be text; width must be at most 2048; guidance must be at least 0; style must be one of: photo, sketch; hd must be true or false; colour is not a parameter of this endpoint',
    );
  });

  it('checks integers and steps (rule step)', () => {
    expect(validateJobInput(endpoint, { prompt: 'x', width: 100 })).toMatchObject({
      errors: [{ name: 'width', rule: 'step', message: 'width must be a multiple of 64' }],
    });
    expect(validateJobInput(endpoint, { prompt: 'x', width: 64.5 })).toMatchObject({
      errors: [{ name: 'width', rule: 'type', message: 'width must be a whole number' }],
    });
  });

  it('names the bad element of an array', () => {
    expect(validateJobInput(endpoint, { prompt: 'x', seeds: [1, 2, 'three'] })).toMatchObject({
      errors: [{ name: 'seeds.2', rule: 'type', message: 'seeds.2 must be a whole number' }],
    });
    expect(validateJobInput(endpoint, { prompt: 'x', seeds: 'one' })).toMatchObject({
      errors: [{ name: 'seeds', rule: 'type', message: 'seeds must be a list' }],
    });
    expect(validateJobInput(endpoint, { prompt: 'x', options: [] })).toMatchObject({
      errors: [{ name: 'options', rule: 'type', message: 'options must be an object' }],
    });
  });

  it('accepts file inputs as URLs, site paths or data: URIs', () => {
    for (const image of [
      'https://example.com/cat.png',
      '/v1/files/abc',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:text/plain,hello%20world',
    ]) {
      expect(validateJobInput(endpoint, { prompt: 'x', image }).valid, image).toBe(true);
    }
  });

  it('refuses other strings as files (rule file) and names the bad element of a file list', () => {
    expect(validateJobInput(endpoint, { prompt: 'x', image: 'cat.png' })).toMatchObject({
      errors: [{ name: 'image', rule: 'file', message: 'image must be a file URL (as POST /v1/files returns) or a data: URI' }],
    });
    expect(validateJobInput(endpoint, { prompt: 'x', image: 'javascript:alert(1)' })).toMatchObject({ errors: [{ rule: 'file' }] });
    expect(validateJobInput(endpoint, { prompt: 'x', image: '//evil.example/x' })).toMatchObject({ errors: [{ rule: 'file' }] });
    expect(validateJobInput(endpoint, { prompt: 'x', masks: ['/v1/files/a', 'nope'] })).toMatchObject({
      errors: [{ name: 'masks.1', rule: 'file' }],
    });
    expect(validateJobInput(endpoint, { prompt: 'x', image: 5 })).toMatchObject({
      errors: [{ name: 'image', rule: 'type', message: 'image must be a file' }],
    });
  });

  it('caps inline data: URIs at 1 MB decoded (rule size)', () => {
    const atLimit = `data:application/octet-stream;base64,${base64Of(MAX_DATA_URI_BYTES)}`;
    const over = `data:application/octet-stream;base64,${base64Of(MAX_DATA_URI_BYTES + 1)}`;
    expect(validateJobInput(endpoint, { prompt: 'x', image: atLimit }).valid).toBe(true);
    expect(validateJobInput(endpoint, { prompt: 'x', image: over })).toMatchObject({
      errors: [
        { name: 'image', rule: 'size', message: 'image is larger than 1 MB inline; upload it with POST /v1/files and pass its URL' },
      ],
    });
  });

  it('refuses an input that is not an object', () => {
    for (const input of [null, 'text', [1], 3]) {
      expect(validateJobInput(endpoint, input)).toEqual({
        valid: false,
        errors: [{ name: 'input', rule: 'type', message: 'input must be an object of parameter values' }],
      });
    }
  });
});
