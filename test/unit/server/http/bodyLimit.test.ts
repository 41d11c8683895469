import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimit } from '../../../../reference-app/server/http/bodyLimit';
import { inputGuard } from '../../../../reference-app/server/http/inputGuard';

// The body limit decides from Content-Length without reading the body, counts a chunked body as
// it streams, and the input guard reads a declared body once and leaves it to the route.

let server: ServerType;
let port: number;
let reads = 0;

beforeAll(async () => {
  const app = new Hono();
  app.use(
    '*',
    inputGuard((c, message) => c.json({ detail: message }, 400)),
  );
  app.post('/echo', bodyLimit({ maxSize: 100, onError: (c) => c.json({ detail: 'too large' }, 413) }), async (c) => {
    reads++;
    return c.json({ got: await c.req.json() });
  });
  server = serve({ fetch: app.fetch, port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends `chunks` as the body: with Content-Length when `length` is set, else chunked. */
function post(chunks: string[], length?: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'Content-Type': 'application/json' };
    if (length !== undefined) headers['Content-Length'] = length;
    const req = http.request({ port, path: '/echo', method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('bodyLimit', () => {
  it('passes a declared body within the limit, read once by the guard and again by the route', async () => {
    const text = JSON.stringify({ prompt: 'hello' });
    const answer = await post([text], Buffer.byteLength(text));
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ got: { prompt: 'hello' } }) });
  });

  it('refuses a declared body over the limit with 413 before the route reads it', async () => {
    const before = reads;
    const text = JSON.stringify({ prompt: 'x'.repeat(200) });
    const answer = await post([text], Buffer.byteLength(text));
    expect(answer.status).toBe(413);
    expect(reads).toBe(before);
  });

  it('counts a chunked body as it streams: within the limit it passes, over it 413', async () => {
    expect(await post(['{"prompt":', '"short"}'])).toEqual({ status: 200, body: JSON.stringify({ got: { prompt: 'short' } }) });
    expect((await post(['{"prompt":"', 'y'.repeat(150), '"}'])).status).toBe(413);
  });

  it('the guard still refuses a NUL in a declared body, and in a chunked one', async () => {
    const text = '{"prompt":"a\\u0000b"}';
    expect((await post([text], Buffer.byteLength(text))).status).toBe(400);
    expect((await post(['{"prompt":', '"a\\u0000b"}'])).status).toBe(400);
  });
});
