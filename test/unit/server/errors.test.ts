import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answerDomainError, STATUS_OF_CODE } from '../../../reference-app/server/api/errors';
import { conflict, DomainError, invalidFields, tooLarge, type DomainErrorCode } from '../../../reference-app/server/errors';

// Domain errors (errors.ts) and the one table that gives each code its status (api/errors.ts):
// the body keeps the API's shape, { detail } or { detail, errors } when fields are named.

async function answer(error: unknown) {
  const app = new Hono();
  app.get('/', () => {
    throw error;
  });
  app.onError((e, c) => answerDomainError(c, e) ?? c.json({ detail: 'Internal Server Error' }, 500));
  const response = await app.request('/');
  return { status: response.status, body: await response.json() };
}

describe('DomainError', () => {
  it('answers with the status of its code and the detail', async () => {
    expect(await answer(conflict('paused'))).toEqual({ status: 409, body: { detail: 'paused' } });
    expect(await answer(tooLarge('file: 9 bytes; the limit is 8'))).toEqual({
      status: 413,
      body: { detail: 'file: 9 bytes; the limit is 8' },
    });
    expect(await answer(new Error('secret detail'))).toEqual({ status: 500, body: { detail: 'Internal Server Error' } });
  });

  it('names every bad field beside a detail that joins them', async () => {
    const error = invalidFields([
      { name: 'gpu', rule: 'exists', message: 'unknown GPU "x"' },
      { name: 'image', rule: 'required', message: 'is required' },
    ]);
    expect(await answer(error)).toEqual({
      status: 422,
      body: { detail: 'gpu: unknown GPU "x"; image: is required', errors: error.fields },
    });
  });

  it('gives every code a 4xx or 5xx status', () => {
    const codes = Object.keys(STATUS_OF_CODE) as DomainErrorCode[];
    expect(codes).toHaveLength(12);
    for (const code of codes) {
      expect(new DomainError(code, 'x').code).toBe(code);
      expect(STATUS_OF_CODE[code]).toBeGreaterThanOrEqual(400);
    }
  });
});
