import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_PATHS, type CatalogueCache, catalogueFastLane, pathAndQuery } from '../../../reference-app/server/http';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { PUBLISHER, rawGet, signedIn, type Raw } from '../helpers';

// Cached catalogue reads are answered before Hono routes them (http/catalogueFastLane.ts,
// docs/deploy.md "Throughput"). The fast lane must answer exactly what the full middleware
// chain answers: a query string sends the same read through the chain (the catalogue routes
// ignore it, so it is the same cache entry), and the two answers are compared header by header.

const EMBED = 'https://embed.example';
const DESCRIPTORS = '/v1/model_management/model_descriptors';

let server: PlatformTestServer;
let token: string;

beforeAll(async () => {
  // A trusted proxy, so X-Forwarded-Proto can turn HSTS on, and an embedding origin for CORS.
  server = await startPlatformServer({ env: { CORS_ORIGINS: EMBED, TRUST_PROXY: '1' } });
  token = (await signedIn(server, PUBLISHER)).session.access_token;
});
afterAll(() => server?.close());

/** True when the app answered without routing: the routed path always answers asynchronously. */
async function answeredAtOnce(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<boolean> {
  const answer = server.platform.app.fetch(new Request(`${server.url}${path}`, { method, headers }));
  const atOnce = !(answer instanceof Promise);
  await answer;
  return atOnce;
}

/** The answer as a client sees it, minus what differs between any two answers (Date). */
const comparable = ({ status, headers, body }: Raw) => {
  const { date: _date, ...rest } = headers;
  return { status, headers: rest, body: body.toString('base64') };
};

const VARIANTS: [string, Record<string, string>, string?][] = [
  ['plain', {}],
  ['brotli', { 'Accept-Encoding': 'gzip, deflate, br' }],
  ['gzip', { 'Accept-Encoding': 'gzip' }],
  ['identity only', { 'Accept-Encoding': '*;q=0, identity' }],
  ['an embedding origin', { Origin: EMBED }],
  ['another origin', { Origin: 'https://elsewhere.example' }],
  ['HTTPS through the trusted proxy', { 'X-Forwarded-Proto': 'https' }],
  ['HEAD', {}, 'HEAD'],
];

describe('the catalogue fast lane', () => {
  it.each([...CATALOGUE_PATHS.keys()])('%s: every variant answers as the middleware chain does', async (path) => {
    for (const [name, headers, method] of VARIANTS) {
      // The first read fills the cache (and its compressed copy) through the chain.
      await rawGet(`${server.url}${path}?fill`, headers, method);
      expect(await answeredAtOnce(path, headers, method), name).toBe(true);
      const fast = await rawGet(`${server.url}${path}`, headers, method);
      const routed = await rawGet(`${server.url}${path}?through=routes`, headers, method);
      expect(comparable(fast), `${path}, ${name}`).toEqual(comparable(routed));
      expect(fast.headers['content-security-policy'], name).toBeDefined();
    }
    const { etag } = (await rawGet(`${server.url}${path}`)).headers as { etag: string };
    const revalidated = await rawGet(`${server.url}${path}`, { 'If-None-Match': etag, Origin: EMBED });
    expect(revalidated.status).toBe(304);
    expect(comparable(revalidated)).toEqual(comparable(await rawGet(`${server.url}${path}?x`, { 'If-None-Match': etag, Origin: EMBED })));
  });

  it("a signed-in reader's list comes from the fast lane once their token is verified, private and their own", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const anonymous = await rawGet(`${server.url}${DESCRIPTORS}`);
    await rawGet(`${server.url}${DESCRIPTORS}?fill`, auth);
    expect(await answeredAtOnce(DESCRIPTORS, auth)).toBe(true);
    const fast = await rawGet(`${server.url}${DESCRIPTORS}`, auth);
    expect(comparable(fast)).toEqual(comparable(await rawGet(`${server.url}${DESCRIPTORS}?x`, auth)));
    expect(fast.headers['cache-control']).toBe('private, no-cache');
    expect(fast.headers.etag).not.toBe(anonymous.headers.etag);
  });

  it('leaves to the routes: API keys (counted per call), unverified tokens, query strings, other paths and methods', async () => {
    await rawGet(`${server.url}${DESCRIPTORS}`);
    expect(await answeredAtOnce(DESCRIPTORS)).toBe(true);
    expect(await answeredAtOnce(DESCRIPTORS, { Authorization: 'Bearer lime_not-a-real-key' })).toBe(false);
    expect(await answeredAtOnce(DESCRIPTORS, { Authorization: `Bearer ${token.slice(0, -4)}AAAA` })).toBe(false);
    expect(await answeredAtOnce(`${DESCRIPTORS}?page=2`)).toBe(false);
    expect(await answeredAtOnce('/v1/openapi.json')).toBe(false);
    expect(await answeredAtOnce(DESCRIPTORS, {}, 'OPTIONS')).toBe(false);
  });

  it('serves nothing stale: a catalogue write empties the cache, and the next read goes through the routes', async () => {
    const path = '/v1/model_management/model_categories';
    await rawGet(`${server.url}${path}`);
    expect(await answeredAtOnce(path)).toBe(true);
    const { db } = server.platform.database;
    await db
      .updateTable('model_categories')
      .set({ sort_idx: (eb) => eb('sort_idx', '+', 0) })
      .execute();
    await expect.poll(() => answeredAtOnce(path), { timeout: 5_000 }).toBe(false);
  });
});

describe('pathAndQuery', () => {
  it.each([
    'http://127.0.0.1:3000/',
    'http://127.0.0.1:3000/v1/model_management/model_categories',
    'http://localhost/a/b?x=1&y=%00',
    'https://limelight.example/a%2Fb?',
    'http://localhost/a?b#c',
    'http://localhost/a#c?d',
  ])('gives the pathname and search of %s', (url) => {
    const { pathname, search } = new URL(url);
    expect(pathAndQuery(url)).toEqual({ path: pathname, query: search.slice(1) });
  });
});

describe('the fast lane with CORS_ORIGINS=*', () => {
  it('grants every caller its own Origin, however many callers there are', () => {
    const cached = Object.freeze({ 'Content-Type': 'application/json', Vary: 'Accept-Encoding', 'Content-Length': '2' });
    const catalogue = {
      answerAtOnce: () => ({ status: 200, headers: cached, body: new Uint8Array([91, 93]) }),
    } as unknown as CatalogueCache;
    const lane = catalogueFastLane(catalogue, { publicUrl: 'http://127.0.0.1:1', trustProxy: 0, corsOrigins: '*' });
    for (let i = 0; i < 40; i++) {
      const origin = `https://site-${i}.example`;
      const answer = lane(new Request('http://127.0.0.1:1/v1/payment/plans', { headers: { Origin: origin } }))!;
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      expect(answer.headers.get('vary')).toBe('Accept-Encoding, Origin');
    }
    const anonymous = lane(new Request('http://127.0.0.1:1/v1/payment/plans'))!;
    expect(anonymous.headers.get('access-control-allow-origin')).toBe('*');
  });
});
