import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '@limelight/client';

// The API key goes to the base URL's origin and nowhere else (docs/sdk.md, "Redirects and plain
// HTTP"). Two local servers on 127.0.0.1, two ports and so two origins: the platform's stand-in
// redirects, the other records every header it gets. Node 20's own fetch already drops
// Authorization on a hop to another origin; the client does not rely on it, so the same journeys
// run again with a fetch that sends every header on (what node-fetch did before 2.6.7).

const KEY = 'lime_secret_redirect_test';
const JOB = { job_id: 'j1', status: 'QUEUED' };

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

async function listen(route: (method: string, path: string) => { status: number; location?: string }) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url!.split('?')[0]!;
      seen.push({ method: req.method!, path, headers: req.headers, body: Buffer.concat(chunks).toString() });
      const { status, location } = route(req.method!, path);
      res.writeHead(status, { 'Content-Type': 'application/json', ...(location ? { Location: location } : {}) });
      res.end(status < 300 ? JSON.stringify(JOB) : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A fetch that follows redirects itself with every header, wherever they point (`redirect: 'manual'` honoured). */
const forwardingFetch: typeof fetch = async (input, init = {}) => {
  let url = new URL(String(input));
  let method = init.method ?? 'GET';
  let body = typeof init.body === 'string' ? init.body : undefined;
  const headers = new Headers(init.headers);
  for (let hop = 0; hop < 20; hop++) {
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      request(url, { method, headers: Object.fromEntries(headers) }, resolve)
        .on('error', reject)
        .end(body);
    });
    const status = answer.statusCode!;
    if (init.redirect !== 'manual' && answer.headers.location && [301, 302, 303, 307, 308].includes(status)) {
      answer.resume();
      if (status === 303 || (method === 'POST' && status < 303)) [method, body] = ['GET', undefined];
      url = new URL(answer.headers.location, url);
      continue;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    return new Response(Buffer.concat(chunks), { status, headers: answer.headers as Record<string, string> });
  }
  throw new TypeError('too many redirects');
};

describe('redirects: the API key stays with the base URL origin', () => {
  let platform: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    other = await listen(() => ({ status: 200 }));
    platform = await listen((method, path) => {
      if (path === '/v1/jobs/j1') return { status: 200 };
      if (path === '/v1/jobs/moved') return { status: 302, location: '/v1/jobs/j1' }; // within the origin
      if (path === '/v1/jobs' && method === 'POST') return { status: 307, location: `${other.url}/v1/jobs` };
      if (path === '/v1/jobs/estimate') return { status: 303, location: `${other.url}/v1/jobs/estimate` };
      return { status: 302, location: `${other.url}${path}` };
    });
  });
  afterAll(async () => {
    await Promise.all([platform, other].map(({ server }) => new Promise<void>((resolve) => (server as Server).close(() => resolve()))));
  });
  beforeEach(() => {
    platform.seen.length = 0;
    other.seen.length = 0;
  });

  for (const [runtime, fetcher] of [
    ["Node's fetch", undefined],
    ['a fetch that sends every header on', forwardingFetch],
  ] as const) {
    it(`${runtime}: another origin gets the request without the key, the platform keeps it`, async () => {
      const client = createClient({ baseUrl: platform.url, apiKey: KEY, retry: { retries: 0 }, fetch: fetcher });
      expect(await client.get('elsewhere')).toEqual(JOB); // GET, 302
      expect(await client.estimate('svc')).toEqual(JOB); // GET, 303
      expect(await client.submit('svc', { input: { prompt: 'x' } })).toEqual(JOB); // POST, 307: a POST there
      expect(other.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /v1/jobs/elsewhere', 'GET /v1/jobs/estimate', 'POST /v1/jobs']);
      expect(JSON.parse(other.seen[2]!.body)).toMatchObject({ service_id: 'svc', input: { prompt: 'x' } });
      for (const { method, path, headers } of other.seen) {
        expect(JSON.stringify(headers), `${method} ${path}`).not.toContain(KEY);
      }
      expect(platform.seen.map((s) => s.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`, `Bearer ${KEY}`]);
    });

    it(`${runtime}: a redirect within the origin keeps the key`, async () => {
      const client = createClient({ baseUrl: platform.url, apiKey: KEY, fetch: fetcher });
      expect(await client.get('moved')).toEqual(JOB);
      expect(platform.seen.map((s) => [s.path, s.headers.authorization])).toEqual([
        ['/v1/jobs/moved', `Bearer ${KEY}`],
        ['/v1/jobs/j1', `Bearer ${KEY}`],
      ]);
      expect(other.seen).toEqual([]);
    });
  }
});

describe('redirects the runtime shows or hides', () => {
  it('https to http on the same host is another origin: no key, no cookie', async () => {
    const calls: { url: string; headers: Headers }[] = [];
    const scripted: typeof fetch = async (input, init) => {
      calls.push({ url: String(input), headers: new Headers(init?.headers) });
      return calls.length === 1
        ? new Response(null, { status: 302, headers: { Location: 'http://api.example/v1/jobs/j1' } })
        : Response.json(JOB);
    };
    const client = createClient({ baseUrl: 'https://api.example', apiKey: KEY, headers: { Cookie: 'session=1' }, fetch: scripted });
    expect(await client.get('j1')).toEqual(JOB);
    expect(calls.map((c) => [c.url, c.headers.get('authorization'), c.headers.get('cookie')])).toEqual([
      ['https://api.example/v1/jobs/j1', `Bearer ${KEY}`, 'session=1'],
      ['http://api.example/v1/jobs/j1', null, null],
    ]);
  });

  it("a browser's hidden redirect (opaqueredirect): the request is sent again for the browser to follow, then always", async () => {
    const calls: (RequestRedirect | undefined)[] = [];
    const browserLike: typeof fetch = async (_input, init) => {
      calls.push(init?.redirect);
      // What a browser answers a redirect under redirect: 'manual': no status, no Location.
      if (init?.redirect === 'manual') return { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers() } as Response;
      return Response.json(JOB);
    };
    const client = createClient({ baseUrl: '', apiKey: KEY, fetch: browserLike });
    expect(await client.get('j1')).toEqual(JOB);
    expect(await client.get('j1')).toEqual(JOB);
    expect(calls).toEqual(['manual', undefined, undefined]);
  });
});

describe('plain HTTP to another machine', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => warn.mockRestore());

  it('warns once per client', async () => {
    const client = createClient({ baseUrl: 'http://api.example.com', apiKey: KEY, fetch: async () => Response.json(JOB) });
    await client.get('j1');
    await client.get('j1');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('http://api.example.com is plain HTTP to another machine');
    createClient({ baseUrl: 'http://10.0.0.7:3000', apiKey: KEY });
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('not for loopback, https or the page’s own origin', () => {
    for (const baseUrl of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://127.8.9.10',
      'http://[::1]:3000',
      'https://api.example.com',
      'HTTP://LOCALHOST:3000',
      '',
    ]) {
      createClient({ baseUrl, apiKey: KEY });
    }
    expect(warn).not.toHaveBeenCalled();
  });
});
