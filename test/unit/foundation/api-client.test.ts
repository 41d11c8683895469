import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelManagementClient, TOKENS_MISSING_ERROR } from '../../../src/api';
import { createApiClient } from '../../../src/api/http';

// A real HTTP server that records what arrives and answers per path, so the client's transport
// rules (product-rules §7) are checked on the wire, not against a stubbed fetch.
interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}
let seen: Seen[] = [];
let server: Server;
let baseURL: string;
let flaky = 0;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    const json = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const path = req.url!.split('?')[0];
    if (path === '/v1/group/ok') return json(200, { hello: 'world' });
    if (path === '/v1/group/echo') return json(201, { body: body ? JSON.parse(body) : null, url: req.url });
    if (path === '/v1/group/detail') return json(422, { detail: 'quantity must be a positive integer' });
    if (path === '/v1/group/detail-list') return json(422, { detail: [{ msg: 'email is required' }, { msg: 'products must be a list' }] });
    if (path === '/v1/group/plain') {
      res.writeHead(503, 'Service Unavailable', { 'content-type': 'text/plain' });
      return res.end('down');
    }
    if (path === '/v1/group/flaky') {
      flaky += 1;
      return flaky === 1 ? json(503, { detail: 'warming up' }) : json(200, { attempt: flaky });
    }
    json(404, { detail: `No route ${path}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  flaky = 0;
});

const client = (token: string | null = 'tok-123') => createApiClient({ baseURL, prefix: '/v1/group/', getAccessToken: () => token });

describe('API client transport (product-rules §7)', () => {
  it('gives status and data on success', async () => {
    expect(await client().get('ok', { auth: 'none' })).toEqual({ ok: true, status: 200, data: { hello: 'world' } });
  });

  it('appends query parameters, drops undefined ones, and sends a JSON body', async () => {
    const result = await client().post('echo', { quantity: 3 }, { query: { a: 'x y', b: 2, c: undefined } });
    expect(result).toEqual({ ok: true, status: 201, data: { body: { quantity: 3 }, url: '/v1/group/echo?a=x+y&b=2' } });
  });

  it('sends the bearer header when a token is required, or optional and present (product-rules §7)', async () => {
    await client().get('ok', { auth: 'required' });
    await client().get('ok', { auth: 'optional' });
    await client(null).get('ok', { auth: 'optional' });
    await client().get('ok', { auth: 'none' });
    expect(seen.map((s) => s.authorization)).toEqual(['Bearer tok-123', 'Bearer tok-123', undefined, undefined]);
  });

  it("fails with 'Tokens not available. Login first.' without calling when a required token is missing (product-rules §6)", async () => {
    const result = await client(null).get('ok', { auth: 'required' });
    expect(result).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    expect(TOKENS_MISSING_ERROR).toBe('Tokens not available. Login first.');
    expect(seen).toHaveLength(0);
  });

  it('takes the error from the body field detail, with status, statusText and url (product-rules §7)', async () => {
    const result = await client().post('detail', { quantity: -1 });
    expect(result).toEqual({
      ok: false,
      status: 422,
      statusText: 'Unprocessable Entity',
      url: `${baseURL}/v1/group/detail`,
      error: 'quantity must be a positive integer',
    });
  });

  it('joins a FastAPI-style list of validation details', async () => {
    const result = await client().post('detail-list', {});
    expect(result).toMatchObject({ ok: false, status: 422, error: 'email is required; products must be a list' });
  });

  it('falls back to the status text when the body has no detail', async () => {
    const result = await client().post('plain', {});
    expect(result).toMatchObject({ ok: false, status: 503, statusText: 'Service Unavailable', error: 'Service Unavailable' });
  });

  it("gives status 0 and 'Offline' when nothing listens (product-rules §7)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = createApiClient({ baseURL: `http://127.0.0.1:${port}`, prefix: '/v1/group/' });
    const result = await offline.get('ok', { auth: 'none' });
    expect(result).toMatchObject({ ok: false, status: 0, error: 'Offline' });
  });

  it("gives status 500 'Internal Server Error' for any other exception (product-rules §7)", async () => {
    const broken = createApiClient({
      baseURL,
      prefix: '/v1/group/',
      fetch: (() => {
        throw new RangeError('boom');
      }) as unknown as typeof fetch,
    });
    expect(await broken.get('ok', { auth: 'none' })).toMatchObject({ ok: false, status: 500, error: 'Internal Server Error' });
  });

  it('retries a GET once on a server error but never a request with a body', async () => {
    expect(await client().get('flaky', { auth: 'none' })).toMatchObject({ ok: true, data: { attempt: 2 } });
    flaky = 0;
    seen = [];
    expect(await client().post('flaky', { a: 1 })).toMatchObject({ ok: false, status: 503, error: 'warming up' });
    expect(seen).toHaveLength(1);
  });
});

describe('model-management client (product-rules §7)', () => {
  it('makes no call for hosting information without hosted_model_id or model_id, and hosted_model_id wins', async () => {
    const mm = createModelManagementClient({ baseURL, getAccessToken: () => 'tok' });
    expect(await mm.modelHostingInformation({})).toBeNull();
    expect(seen).toHaveLength(0);
    await mm.modelHostingInformation({ hosted_model_id: 'h1', model_id: 'm1' });
    expect(seen[0]!.url).toBe('/v1/model_management/model_hosting_information?hosted_model_id=h1');
    expect(seen[0]!.authorization).toBe('Bearer tok');
  });

  it('calls model descriptors with an optional token and categories with none', async () => {
    const anonymous = createModelManagementClient({ baseURL, getAccessToken: () => null });
    await anonymous.modelDescriptors();
    const signedIn = createModelManagementClient({ baseURL, getAccessToken: () => 'tok' });
    await signedIn.modelDescriptors();
    await signedIn.modelCategories();
    expect(seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/v1/model_management/model_descriptors', undefined],
      ['/v1/model_management/model_descriptors', 'Bearer tok'],
      ['/v1/model_management/model_categories', undefined],
    ]);
  });
});
