import { describe, expect, it } from 'vitest';
import type { ServiceEndpoint } from '../../../src/api/types';
import { buildInput, errorsByField, fieldsFromSchema, initialDraft, labelFor } from '../../../src/components/ServiceRunner/formModel';
import { endpointInputSchema } from '../../../src/run/schema';
import { validateJobInput } from '../../../src/run/validate';

const endpoint: ServiceEndpoint = {
  method: 'POST',
  path: '/generate',
  parameters: [
    { name: 'prompt', type: 'string', required: true, description: 'What to draw' },
    { name: 'style', type: 'string', required: false, enum: ['photo', 'anime'], default: 'photo' },
    { name: 'width', type: 'integer', required: false, default: 1024, minimum: 64, maximum: 2048, step: 64 },
    { name: 'guidance_scale', type: 'number', required: false, default: 7 },
    { name: 'enhance', type: 'boolean', required: false, default: true },
    { name: 'image', type: 'file', required: false },
    { name: 'messages', type: 'array', required: false, items: { type: 'object' } },
    { name: 'languages', type: 'array', required: false, default: ['en'], items: { type: 'string' } },
    { name: 'options', type: 'object', required: false },
    { name: 'negative_prompt', type: 'string', required: false, default: '' },
    { name: 'voice', type: 'string', required: false, default: 'aria' },
  ],
};
const MESSAGES = { notANumber: 'Enter a number.', notJson: 'Enter valid JSON.' };
const fields = fieldsFromSchema(endpointInputSchema(endpoint));
const byName = Object.fromEntries(fields.map((f) => [f.name, f]));

describe('runner form model: one control per parameter, from the JSON Schema', () => {
  it('chooses the control by type', () => {
    expect(Object.fromEntries(fields.map((f) => [f.name, f.kind]))).toEqual({
      prompt: 'textarea',
      style: 'enum',
      width: 'integer',
      guidance_scale: 'number',
      enhance: 'boolean',
      image: 'file',
      messages: 'messages',
      languages: 'list',
      options: 'json',
      negative_prompt: 'textarea',
      voice: 'text',
    });
  });

  it('numbers carry min, max and step; required is marked', () => {
    expect(byName.width).toMatchObject({ min: 64, max: 2048, step: 64, required: false });
    expect(byName.guidance_scale!.step).toBe('any');
    expect(byName.prompt!.required).toBe(true);
    expect(byName.prompt!.description).toBe('What to draw');
  });

  it('labels read as words, not parameter names', () => {
    expect(byName.guidance_scale!.label).toBe('Guidance scale');
    expect(labelFor('x', { title: 'Custom' })).toBe('Custom');
  });

  it('the drafts start from the defaults', () => {
    expect(initialDraft(fields)).toEqual({
      prompt: '',
      style: '0',
      width: '1024',
      guidance_scale: '7',
      enhance: true,
      image: null,
      messages: [{ role: 'user', content: '' }],
      languages: ['en'],
      options: '',
      negative_prompt: '',
      voice: 'aria',
    });
  });

  it('a past input fills the drafts (run again / reopen)', () => {
    const draft = initialDraft(fields, {
      prompt: 'a lime',
      style: 'anime',
      messages: [{ role: 'system', content: 'Be brief' }],
      enhance: false,
    });
    expect(draft).toMatchObject({ prompt: 'a lime', style: '1', enhance: false, messages: [{ role: 'system', content: 'Be brief' }] });
  });

  it('builds the typed input, leaving out empty optional fields', () => {
    const draft = { ...initialDraft(fields), prompt: 'a lime', width: ' 512 ', guidance_scale: '', options: '{"a":1}' };
    const { input, errors } = buildInput(fields, draft, MESSAGES);
    expect(errors).toEqual([]);
    expect(input).toEqual({
      prompt: 'a lime',
      style: 'photo',
      width: 512,
      enhance: true,
      languages: ['en'],
      options: { a: 1 },
      voice: 'aria',
    });
    expect(validateJobInput(endpoint, input).valid).toBe(true);
  });

  it('text that is no number or no JSON is an error of that field', () => {
    const draft = { ...initialDraft(fields), prompt: 'x', width: '12abc', options: '{oops' };
    const { errors } = buildInput(fields, draft, MESSAGES);
    expect(errors).toEqual([
      { name: 'width', rule: 'type', message: 'Enter a number.' },
      { name: 'options', rule: 'type', message: 'Enter valid JSON.' },
    ]);
  });

  it('a missing required field is left to the shared validator, which names it', () => {
    const { input } = buildInput(fields, initialDraft(fields), MESSAGES);
    expect(input).not.toHaveProperty('prompt');
    const result = validateJobInput(endpoint, input);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(errorsByField(result.errors).prompt!.message).toBe('prompt is required');
  });

  it('chat messages: empty ones are dropped, roles kept', () => {
    const draft = {
      ...initialDraft(fields),
      prompt: 'p',
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: '  ' },
      ],
    };
    expect(buildInput(fields, draft, MESSAGES).input.messages).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('errors inside arrays mark the array field', () => {
    const map = errorsByField([
      { name: 'messages.0', rule: 'type', message: 'messages.0 must be an object' },
      { name: 'messages.1', rule: 'type', message: 'second' },
      { name: 'width', rule: 'maximum', message: 'width must be at most 2048' },
    ]);
    expect(Object.keys(map)).toEqual(['messages', 'width']);
    expect(map.messages!.message).toBe('messages.0 must be an object');
  });
});

describe('runner form model: parameters without element types (as seeded)', () => {
  it('messages without items get the chat editor; other untyped arrays a list', () => {
    const seeded = fieldsFromSchema(
      endpointInputSchema({
        parameters: [
          { name: 'messages', type: 'array', required: true },
          { name: 'languages', type: 'array', required: false, default: ['en'] },
        ],
      }),
    );
    expect(seeded.map((f) => f.kind)).toEqual(['messages', 'list']);
  });
});
