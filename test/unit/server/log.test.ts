import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { requestContext } from '../../../reference-app/server/http/requestContext';
import { configureLogger, errorForLog, log, prettyLine } from '../../../reference-app/server/log';

// The server's logger (log.ts): JSON lines in production, readable lines elsewhere, the request
// id on every line written while a request is handled, and no secrets in what it writes.

let lines: string[] = [];
const capture = (format: 'json' | 'pretty') => {
  lines = [];
  configureLogger({ format, level: 'info', write: (line) => lines.push(line) });
};
const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

afterEach(() => configureLogger({ format: 'pretty', level: 'info', write: (line) => process.stdout.write(line) }));

describe('log', () => {
  it('writes one JSON object per line with level, time and message', () => {
    capture('json');
    log.warn({ job: 'j1' }, 'job slow');
    expect(entries()).toEqual([expect.objectContaining({ level: 40, msg: 'job slow', job: 'j1', time: expect.any(String) })]);
  });

  it('never writes credentials, however deep they sit', () => {
    capture('json');
    log.info(
      {
        headers: { Authorization: 'Bearer eyJtoken', cookie: 'sb=cookie-value' },
        body: { email: 'a@b.c', password: 'hunter2', nested: { refresh_token: 'rt-value', api_key: 'lime_value' } },
        client_secret: 'cs-value',
      },
      'sign-in',
    );
    const [line] = lines;
    expect(line).not.toMatch(/eyJtoken|cookie-value|hunter2|rt-value|lime_value|cs-value/);
    expect(entries()[0]).toMatchObject({
      headers: { Authorization: '[redacted]', cookie: '[redacted]' },
      body: { email: 'a@b.c', password: '[redacted]', nested: { refresh_token: '[redacted]', api_key: '[redacted]' } },
    });
  });

  it('logs errors by class, code and message with quoted values blanked, never their fields', () => {
    capture('json');
    const error = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key" (\'a@b.c\')'), {
      code: '23505',
      parameters: ['a@b.c', '$argon2id$hash'],
    });
    log.error({ err: error }, 'insert failed');
    expect(lines[0]).not.toMatch(/a@b\.c|argon2|users_email_key/);
    expect(entries()[0]).toMatchObject({
      err: { type: 'Error', code: '23505', message: 'duplicate key value violates unique constraint "…" (\'…\')' },
    });
    expect(errorForLog('thrown string')).toEqual({ type: 'string', message: 'non-error thrown: string' });
  });

  it('puts the request id on every line written while a request is handled, from X-Request-Id or a new one', async () => {
    capture('json');
    const app = new Hono();
    app.use('*', requestContext({ logRequests: true }));
    app.get('/work', async (c) => {
      log.info('first');
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info('second');
      return c.text('ok');
    });
    await app.request('/work?token=abc', { headers: { 'X-Request-Id': 'req-123' } });
    expect(entries().map((e) => [e.req_id, e.msg])).toEqual([
      ['req-123', 'first'],
      ['req-123', 'second'],
      ['req-123', 'GET /work 200'],
    ]);
    expect(lines.join('')).not.toContain('token=abc');

    lines = [];
    await app.request('/work', { headers: { 'X-Request-Id': 'not an id; drop table' } });
    const ids = new Set(entries().map((e) => e.req_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
    log.info('outside');
    expect(entries().at(-1)).not.toHaveProperty('req_id');
  });

  it('writes readable lines in development, and honours the level', () => {
    capture('pretty');
    log.info({ job: 'j1' }, 'queued');
    log.debug('not written at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}queued job=j1\n$/);
    expect(
      prettyLine('{"level":50,"time":"2026-01-01T10:00:00.000Z","msg":"boom","req_id":"r1","err":{"type":"TypeError","message":"x"}}'),
    ).toBe('10:00:00.000 ERROR [r1] boom\n  TypeError: x\n');
  });
});
