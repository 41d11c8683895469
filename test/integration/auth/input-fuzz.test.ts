import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeError } from '../../../reference-app/server/http';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { confirmedUser, supabase } from '../helpers';

// Bad input never answers 5xx (issue 11, item 7). Every route of /auth/v1 and /v1, read from
// the Hono app and the OpenAPI document (so a route added later is fuzzed without touching
// this file), gets a corpus of NUL characters, lone surrogates, malformed %-escapes, overlong
// strings and wrong types, in its path parameters, its query and its JSON body, anonymously
// and signed in. Nothing may answer 5xx, and nothing the server logs may repeat the input.

const MARKER = 'fuzz-secret-7f3a';

/** JSON values put in every body field. */
const BODY_VALUES: unknown[] = [
  // A NUL after the marker: the NUL check, and the marker shows whether the value was logged.
  `${MARKER}\u0000`,
  '\ud800',
  'tail \udfff',
  'x'.repeat(100_000),
  '',
  '%E0%A4%A',
  "' OR 1=1 --",
  '<img src=x onerror=alert(1)>',
  '😀\u202e',
  0,
  -1,
  1e308,
  1.5,
  true,
  [],
  {},
  ['\u0000'],
  { '\u0000': MARKER },
  { nested: { deeper: '\ud800' } },
];

/** Bodies that are not a JSON object at all. */
const RAW_BODIES = ['{', '[]', 'null', '"text"', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u0000"}', `{"${'k'.repeat(5000)}":1}`];

/** Raw (already encoded) values for query parameters and path parameters (the NUL after the marker, as above). */
const RAW_URL_VALUES = [`${MARKER}%00`, '%E0%A4%A', '%ED%A0%80', '%', '%FF%FE', 'x'.repeat(9000), '..%2F..%2Fetc', 'not-a-uuid'];

/** Fields the auth API reads (GoTrue's request bodies). */
const AUTH_FIELDS = [
  'email',
  'password',
  'current_password',
  'token',
  'token_hash',
  'type',
  'data',
  'code',
  'challenge_id',
  'refresh_token',
  'auth_code',
  'code_verifier',
  'code_challenge',
  'code_challenge_method',
  'factor_type',
  'friendly_name',
  'issuer',
  'phone',
  'create_user',
];
const AUTH_QUERY = [
  'grant_type',
  'type',
  'token',
  'redirect_to',
  'scope',
  'provider',
  'scopes',
  'code',
  'state',
  'error',
  'code_challenge',
];

interface Route {
  method: string;
  /** Hono style: /v1/x/:id */
  path: string;
  bodyFields: string[];
  queryNames: string[];
}

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };
type OpenApi = {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
  components?: { schemas?: Record<string, Schema> };
};

function propertiesOf(doc: OpenApi, schema: Schema | undefined, depth = 0): string[] {
  if (!schema || depth > 5) return [];
  if (schema.$ref) return propertiesOf(doc, doc.components?.schemas?.[schema.$ref.split('/').at(-1)!], depth + 1);
  const nested = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) =>
    propertiesOf(doc, s, depth + 1),
  );
  return [...Object.keys(schema.properties ?? {}), ...nested];
}

/** Every API route: the Hono app's routes, enriched with the OpenAPI document's fields. */
function apiRoutes(server: PlatformTestServer, doc: OpenApi): Route[] {
  const routes = new Map<string, Route>();
  const add = (method: string, path: string, bodyFields: string[], queryNames: string[]) => {
    const key = `${method} ${path}`;
    const known = routes.get(key);
    if (known) {
      known.bodyFields = [...new Set([...known.bodyFields, ...bodyFields])];
      known.queryNames = [...new Set([...known.queryNames, ...queryNames])];
    } else routes.set(key, { method, path, bodyFields, queryNames });
  };
  for (const { method, path } of server.platform.app.routes) {
    if (method === 'ALL' || path.includes('*') || !/^\/(auth\/)?v1\//.test(path)) continue;
    const auth = path.startsWith('/auth/');
    add(method, path, auth ? AUTH_FIELDS : [], auth ? AUTH_QUERY : []);
  }
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const honoPath = `/v1${path.replace(/^\/v1/, '')}`.replace(/\{([^}]+)\}/g, ':$1');
      const body = operation.requestBody?.content?.['application/json']?.schema;
      add(
        method.toUpperCase(),
        honoPath,
        propertiesOf(doc, body),
        (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      );
    }
  }
  return [...routes.values()];
}

interface Probe {
  method: string;
  url: string;
  body?: string;
  label: string;
}

function probesFor(route: Route, origin: string): Probe[] {
  const probes: Probe[] = [];
  const params = route.path.match(/:[A-Za-z_]+/g) ?? [];
  const plainPath = route.path.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000');
  const withBody = !['GET', 'HEAD'].includes(route.method);
  for (const raw of RAW_URL_VALUES) {
    if (params.length)
      probes.push({ method: route.method, url: `${origin}${route.path.replace(/:[A-Za-z_]+/g, raw)}`, label: `path=${raw.slice(0, 20)}` });
    const names = route.queryNames.length ? route.queryNames : ['q'];
    const query = names.map((n) => `${n}=${raw}`).join('&');
    probes.push({ method: route.method, url: `${origin}${plainPath}?${query}&${raw}=1`, label: `query=${raw.slice(0, 20)}` });
  }
  if (withBody) {
    const fields = route.bodyFields.length ? route.bodyFields : ['value'];
    for (const [i, value] of BODY_VALUES.entries()) {
      probes.push({
        method: route.method,
        url: `${origin}${plainPath}`,
        body: JSON.stringify(Object.fromEntries(fields.map((f) => [f, value]))),
        label: `body#${i}`,
      });
    }
    for (const [i, raw] of RAW_BODIES.entries())
      probes.push({ method: route.method, url: `${origin}${plainPath}`, body: raw, label: `raw#${i}` });
  }
  return probes;
}

let server: PlatformTestServer;
let doc: OpenApi;
const logged: string[] = [];

beforeAll(async () => {
  server = await startPlatformServer({
    env: {
      EMAIL_MIN_INTERVAL: '0',
      RATE_LIMIT_SIGN_IN: '0',
      RATE_LIMIT_SIGN_IN_ACCOUNT: '0',
      RATE_LIMIT_SIGN_UP: '0',
      RATE_LIMIT_EMAIL_SENT: '0',
      RATE_LIMIT_TOKEN_REFRESH: '0',
      RATE_LIMIT_VERIFY: '0',
      RATE_LIMIT_MFA: '0',
      RATE_LIMIT_SUPPORT: '0',
    },
  });
  doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as OpenApi;
  // The server runs in this process: what it logs lands here.
  for (const level of ['error', 'warn', 'log'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${JSON.stringify(a)}` : String(a))).join(' '));
    });
  }
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server?.close();
});

/** A fresh signed-in token; the fuzz may change the password, sign out or delete the account. */
async function freshToken(): Promise<string> {
  const credentials = await confirmedUser(server, 'fuzz');
  const { data, error } = await supabase(server).auth.signInWithPassword(credentials);
  if (error) throw error;
  return data.session!.access_token;
}

let current: string | undefined;
/**
 * A token the server still takes: the last one while GET /auth/v1/user answers it, else a fresh
 * user's. (A new user for every route cost two password hashes a route and found nothing more.)
 */
async function workingToken(): Promise<string> {
  if (current) {
    const answer = await fetch(`${server.url}/auth/v1/user`, { headers: { apikey: server.authKey, Authorization: `Bearer ${current}` } });
    await answer.body?.cancel();
    if (answer.status === 200) return current;
  }
  return (current = await freshToken());
}

async function send(probe: Probe, headers: Record<string, string>): Promise<number> {
  const response = await fetch(probe.url, {
    method: probe.method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: probe.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  await response.body?.cancel();
  return response.status;
}

describe('the input fuzz', () => {
  it('walks every route of /auth/v1 and /v1, including the ones in the OpenAPI document', () => {
    const routes = apiRoutes(server, doc);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toEqual(
      expect.arrayContaining(['POST /auth/v1/signup', 'POST /auth/v1/token', 'POST /auth/v1/factors/:id/verify', 'GET /auth/v1/verify']),
    );
    for (const path of Object.keys(doc.paths))
      expect(keys.some((k) => k.endsWith(` /v1${path.replace(/^\/v1/, '')}`.replace(/\{([^}]+)\}/g, ':$1')))).toBe(true);
    expect(routes.length).toBeGreaterThanOrEqual(50);
  });

  it('answers no probe with a 5xx, signed in or not, and logs none of the input', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of apiRoutes(server, doc)) {
      const token = await workingToken();
      const probes = probesFor(route, server.url);
      for (const [who, headers] of [
        ['anonymous', { apikey: server.authKey }],
        ['signed in', { apikey: server.authKey, Authorization: `Bearer ${token}` }],
      ] as const) {
        // A few at a time: fast enough, and concurrent requests are part of the test.
        for (let i = 0; i < probes.length; i += 4) {
          const batch = probes.slice(i, i + 4);
          const statuses = await Promise.all(batch.map((probe) => send(probe, headers).catch((error: Error) => `${error.name}`)));
          sent += batch.length;
          statuses.forEach((status, j) => {
            if (typeof status !== 'number' || status >= 500)
              failures.push(`${route.method} ${route.path} ${batch[j]!.label} (${who}) -> ${status}`);
          });
        }
      }
    }
    console.info(`input fuzz: ${sent} requests, ${failures.length} answered 5xx or failed`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
    const leaks = logged.filter((line) => line.includes(MARKER) || line.includes('$argon2'));
    expect(leaks).toEqual([]);
  }, 600_000);
});

describe('the error log', () => {
  it('leaves out the parameters and quoted values of a database error', async () => {
    const { db } = server.platform.database;
    const error = await db
      .selectFrom('users')
      .select('id')
      .where('id', '=', `${MARKER}-not-a-uuid`)
      .execute()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect(JSON.stringify(error) + String((error as Error).message)).toContain(MARKER);
    const line = describeError(error);
    expect(line).toMatch(/invalid input syntax for type uuid/);
    expect(line).not.toContain(MARKER);
  });
});

describe('the answer to bad input', () => {
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { apikey: server.authKey, 'Content-Type': 'application/json', ...init.headers },
    });

  it('is 400 naming the field, in GoTrue’s shape on the auth API', async () => {
    const nul = await call('/auth/v1/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'a\u0000@example.test', password: 'secret-123' }),
    });
    expect(nul.status).toBe(400);
    expect(nul.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await nul.json()).toMatchObject({ code: 'validation_failed', msg: 'email must not contain NUL characters' });
    const surrogate = await call('/auth/v1/signup', {
      method: 'POST',
      body: '{"email":"a@example.test","password":"secret-123","data":{"name":"\\ud800"}}',
    });
    expect(await surrogate.json()).toMatchObject({
      code: 'validation_failed',
      msg: 'data.name must not contain unpaired UTF-16 surrogates',
    });
    const escape = await call('/auth/v1/verify?type=signup&token=%E0%A4%A');
    expect(escape.status).toBe(400);
    expect(await escape.json()).toMatchObject({ msg: 'query parameter "token": malformed percent-escape' });
  });

  it('is 400 with `detail` elsewhere', async () => {
    const query = await call('/v1/model_management/model_hosting_information?id=%00');
    expect(query.status).toBe(400);
    expect(await query.json()).toEqual({ detail: 'query parameter "id" must not contain NUL characters' });
    const long = await call(`/v1/model_management/model_descriptors?search=${'x'.repeat(9000)}`);
    expect(await long.json()).toEqual({ detail: 'query parameter "search" is too long: at most 8192 characters' });
    const path = await call('/media/covers/%E0%A4%A.svg');
    expect(path.status).toBe(400);
    expect(await path.json()).toEqual({ detail: 'path: malformed percent-escape' });
  });
});
