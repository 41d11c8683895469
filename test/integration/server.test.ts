import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../reference-app/server/db';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import { confirmedUser, globalServer, rawApi, signedIn, supabase } from './helpers';

// The server around the APIs: /config.json, the OpenAPI description, routing of unknown
// paths, the dev mailbox page, the built app with SPA fallback, and the database staying put
// across restarts.

const target = globalServer();

describe('/config.json', () => {
  it('gives the origin for both APIs and the public auth key', async () => {
    const config = await (await fetch(`${target.url}/config.json`)).json();
    expect(config).toEqual({ apiUrl: target.url, authUrl: target.url, authKey: target.authKey });
  });
});

describe('/v1/openapi.json', () => {
  it('describes every platform call of product-rules §7', async () => {
    const doc = (await (await fetch(`${target.url}/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    const calls = [
      'get /model_management/model_categories',
      'get /model_management/model_descriptors',
      'get /model_management/model_hosting_information',
      'get /model_management/pricing_servers',
      'get /model_management/model_pricing_table',
      'post /profile/sign_in_sign_up',
      'get /profile/profile',
      'post /profile/agree_to_terms',
      'post /profile/update_profile',
      'get /profile/api_keys',
      'post /profile/create_api_key',
      'post /profile/delete_api_key',
      'get /profile/usage_statistics',
      'post /profile/upsert_pat',
      'post /profile/delete_pat',
      'get /profile/get_pat_token',
      'get /payment/balance',
      'post /payment/buy_credit',
      'post /payment/create_checkout_session',
      'get /payment/get_transactions',
      'get /payment/subscription',
      'post /payment/subscription/create',
      'post /payment/subscription/cancel',
      'post /payment/subscription/cancel_at_period_end',
      'post /payment/subscription/reactivate',
      'get /support/subscription_options',
      'post /support/subscribe_newsletter',
      'post /support/unsubscribe_newsletter',
      'post /support/support',
    ];
    for (const call of calls) {
      const [method, route] = call.split(' ') as [string, string];
      expect(doc.paths[route]?.[method], call).toBeDefined();
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(JSON.stringify(doc.paths['/payment/buy_credit'])).toContain('#/components/schemas/BuyCredit');
    expect((doc.components as unknown as { schemas: Record<string, unknown> }).schemas.BuyCredit).toMatchObject({
      properties: { quantity: { type: 'integer', minimum: 1 } },
    });
  });
});

describe('routing', () => {
  it('answers unknown /v1 routes with 404 and a detail', async () => {
    const raw = await rawApi(target, 'GET', '/v1/model_management/nope');
    expect(raw).toMatchObject({ status: 404, json: { detail: 'No route GET /v1/model_management/nope' } });
    expect((await rawApi(target, 'DELETE', '/v1/profile/profile')).status).toBe(404);
  });

  it('answers unknown auth routes GoTrue-style', async () => {
    const response = await fetch(`${target.url}/auth/v1/nope`, { headers: { apikey: target.authKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });

  it('serves the dev mailbox page with sandboxed message frames', async () => {
    const { email } = await confirmedUser(target, 'page');
    const page = await fetch(`${target.url}/dev/mailbox?to=${encodeURIComponent(email)}`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(html).toContain('Confirm your Limelight account');
    expect(html).toContain('<iframe sandbox=""');
    const all = (await (await fetch(`${target.url}/dev/mailbox.json`)).json()) as Array<{ created_at: string }>;
    const times = all.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('draws the same cover for the same service and another for another (media/covers.ts)', async () => {
    const a = await (await fetch(`${target.url}/media/covers/black-forest-labs%2Fflux-schnell.svg`)).text();
    const b = await (await fetch(`${target.url}/media/covers/black-forest-labs%2Fflux-schnell.svg`)).text();
    const c = await (await fetch(`${target.url}/media/covers/lime-chat-8b.svg`)).text();
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    // The name-only drawings of before are gone: nothing on the site draws a text it is given.
    expect((await fetch(`${target.url}/media/models/lime-chat-8b.svg`)).status).toBe(404);
  });
});

describe('serving the built app', () => {
  let server: PlatformTestServer;
  let appDir: string;
  beforeAll(async () => {
    appDir = mkdtempSync(path.join(tmpdir(), 'lime-app-'));
    mkdirSync(path.join(appDir, 'assets'));
    writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><title>Limelight app</title><div id="root"></div>');
    writeFileSync(path.join(appDir, 'assets', 'main-abc123.js'), 'console.log("app")');
    server = await startPlatformServer({ serveApp: true, env: { APP_DIR: appDir } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(appDir, { recursive: true, force: true });
  });

  it('serves files, and index.html for app routes (SPA fallback)', async () => {
    for (const route of ['/', '/account/billing', '/APIs/service/black-forest-labs/flux-schnell', '/signinup?page_state=1']) {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.text(), route).toContain('<title>Limelight app</title>');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    const asset = await fetch(`${server.url}/assets/main-abc123.js`);
    expect(asset.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('does not hand index.html out for missing files, API paths or traversal attempts', async () => {
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
    expect((await rawApi(server, 'GET', '/v1/unknown')).json).toEqual({ detail: 'No route GET /v1/unknown' });
    expect((await fetch(`${server.url}/assets/..%2f..%2fpackage.json`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/..%2f..%2f..%2fetc%2fpasswd`)).text()).not.toMatch(/root:/);
  });
});

describe('persistence', () => {
  it('keeps users and sessions in DATA_DIR across a restart, and seeds only once', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-persist-'));
    // Against a real PostgreSQL (DATABASE_URL) the data lives in a schema kept between the two.
    const postgres = process.env.DATABASE_URL;
    const schema = postgres ? `lime_persist_${Date.now()}` : undefined;
    try {
      const first = await startPlatformServer({ dataDir, schema });
      const credentials = await confirmedUser(first, 'persist');
      const { session } = await signedIn(first, credentials);
      const key = first.authKey;
      const models = (await rawApi(first, 'GET', '/v1/model_management/model_descriptors')).json.length;
      await first.close();

      // Same PUBLIC_URL (the issuer of the tokens), as a real restart has.
      const second = await startPlatformServer({ dataDir, schema, port: Number(new URL(first.url).port) });
      try {
        expect(second.authKey).toBe(key);
        // Same signing keys: the old access token is still valid, the refresh token still works.
        expect((await supabase(second).auth.getUser(session.access_token)).data.user!.email).toBe(credentials.email);
        expect((await supabase(second).auth.refreshSession({ refresh_token: session.refresh_token })).error).toBeNull();
        expect((await rawApi(second, 'GET', '/v1/model_management/model_descriptors')).json.length).toBe(models);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      if (postgres && schema) await dropSchema(postgres, schema);
    }
  });
});
