import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';

// The public pages as the server answers them (issue 39, item 1): their content, own title,
// description, canonical URL and link-preview tags in the HTML, before any script runs. One
// server; the app's server entry comes from its source through Vitest's transform (the same
// vanilla-extract and alias setup as the build), so the test needs no build. The built bundle
// is covered by test/e2e/server-render.spec.ts.

const root = path.resolve(import.meta.dirname, '../../..');
let server: PlatformTestServer;
let dir: string;

beforeAll(async () => {
  // The layout the renderer reads (dist/app beside dist/server/ssr), made of the sources.
  dir = mkdtempSync(path.join(tmpdir(), 'lime-ssr-'));
  const appDir = path.join(dir, 'app');
  mkdirSync(path.join(appDir, '.vite'), { recursive: true });
  mkdirSync(path.join(dir, 'server/ssr'), { recursive: true });
  writeFileSync(path.join(appDir, 'index.html'), readFileSync(path.join(root, 'reference-app/index.html')));
  writeFileSync(path.join(appDir, '.vite/manifest.json'), '{}');
  writeFileSync(
    path.join(dir, 'server/ssr/entry-server.js'),
    `export * from ${JSON.stringify(path.join(root, 'reference-app/src/entry-server.tsx'))};\n`,
  );
  server = await startPlatformServer({ serveApp: true, env: { APP_DIR: appDir } });
  // The first render transforms the app's sources: done here, not inside a test's time limit.
  await fetch(`${server.url}/`);
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function page(pathname: string) {
  const response = await fetch(`${server.url}${pathname}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

const meta = (html: string, key: string) =>
  new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
/** The page's hydration data (the JSON block). */
function hydration(html: string) {
  const json = /<script type="application\/json" id="limelight-hydration">([^<]*)<\/script>/.exec(html)?.[1];
  expect(json, 'the hydration block').toBeDefined();
  const payload = JSON.parse(json!) as {
    router: {
      loaderData: Record<
        string,
        { catalogue?: { models: { id: string }[]; categories: unknown[] } | null; overview?: { total: number } } | null
      >;
    };
  };
  const data = Object.values(payload.router.loaderData).find((d) => d?.catalogue);
  return {
    bytes: json!.length,
    models: data?.catalogue?.models.map((m) => m.id) ?? [],
    categories: data?.catalogue?.categories.length ?? 0,
    overview: data?.overview,
  };
}
/** The rendered app, without the head (whose tags repeat the title). */
const body = (html: string) => html.slice(html.indexOf('<div id="root">'));

describe('server-rendered public pages', () => {
  const pages: { path: string; title: string; text: string[]; canonical?: string }[] = [
    { path: '/', title: 'Limelight · Serverless GPU cloud for AI model APIs', text: ['serverless GPU cloud', 'How It Works'] },
    { path: '/Pricing', title: 'Pricing · Limelight', text: ['Pricing'] },
    { path: '/hosting', title: 'Hosting · Limelight', text: ['Hosting'], canonical: '/Hosting' },
    { path: '/company', title: 'About us · Limelight', text: ['About'] },
    { path: '/terms_of_service', title: 'Terms of Service · Limelight', text: ['Terms of Service'] },
    { path: '/privacy_policy', title: 'Privacy Policy · Limelight', text: ['Privacy'] },
    {
      path: '/APIs/service/black-forest-labs/flux-schnell',
      title: 'black-forest-labs/flux-schnell · Limelight',
      text: ['<h1', 'black-forest-labs/flux-schnell', 'Playground'],
    },
  ];

  it.each(pages)('$path holds its content, title, description, canonical URL and preview tags', async (expected) => {
    const { status, html, headers } = await page(expected.path);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(title(html)).toBe(expected.title.replace(/&/g, '&amp;'));
    expect(html.match(/<title>/g)).toHaveLength(1);
    const description = meta(html, 'description');
    expect(description?.length).toBeGreaterThan(20);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(canonical(html)).toBe(`${server.url}${expected.canonical ?? expected.path}`);
    expect(meta(html, 'og:title')).toBe(title(html));
    expect(meta(html, 'og:description')).toBe(description);
    expect(meta(html, 'og:url')).toBe(canonical(html));
    expect(meta(html, 'twitter:card')).toMatch(/^summary/);
    expect(meta(html, 'twitter:title')).toBe(title(html));
    for (const text of expected.text) expect(body(html)).toContain(text);
    // The page hydrates with the data it was rendered with, in a block no CSP forbids.
    expect(html).toContain('<script type="application/json" id="limelight-hydration">');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('a service page says what the service is: its name, description and product preview tags', async () => {
    const models = (await (await fetch(`${server.url}/v1/model_management/model_descriptors`)).json()) as {
      id: string;
      display_name: string;
      model_desc: string;
    }[];
    const model = models.find((m) => m.id === 'openai/whisper');
    const { html } = await page(`/APIs/service/${model!.id}`);
    expect(title(html)).toContain(model!.display_name);
    const words = model!.model_desc
      .replace(/<[^>]*>/g, ' ')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 4)
      .join(' ');
    expect(meta(html, 'description')).toContain(words);
    expect(meta(html, 'og:type')).toBe('product');
    expect(meta(html, 'og:image')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\//);
    expect(body(html)).toMatch(new RegExp(`<h1[^>]*>${model!.display_name}</h1>`));
    expect(body(html)).toContain(model!.model_desc);
    // Its picture, the page's largest paint (npm run bench delivery), is asked for first.
    expect(body(html)).toMatch(/<img[^>]*fetchpriority="high"/i);
  });

  it('the catalogue renders the search in its URL: matching services only', async () => {
    const { html } = await page('/APIs/Overview?q=flux');
    expect(title(html)).toBe('APIs &amp; Services · Limelight');
    expect(canonical(html)).toBe(`${server.url}/APIs/Overview?q=flux`);
    const links = (html: string) => [...body(html).matchAll(/<a [^>]*href="(\/APIs\/service\/[^"]+)"/g)].map((m) => m[1]);
    expect(links(html)).toContain('/APIs/service/black-forest-labs/flux-schnell');
    expect(links(html)).not.toContain('/APIs/service/openai/whisper');
    expect(links((await page('/APIs/Overview?q=whisper')).html)).toContain('/APIs/service/openai/whisper');
  });

  it('hands each page only the part of the catalogue it shows, not the whole catalogue', async () => {
    const all = (await (await fetch(`${server.url}/v1/model_management/model_descriptors`)).json()) as unknown[];
    expect(all.length).toBeGreaterThan(30);
    const service = hydration((await page('/APIs/service/openai/whisper')).html);
    expect(service.models).toEqual(['openai/whisper']);
    const home = hydration((await page('/')).html);
    expect(home.models.length).toBeGreaterThan(0);
    expect(home.models.length).toBeLessThanOrEqual(18);
    // The overview: the results of its page (24 by default) and the count of all of them.
    const overview = hydration((await page('/APIs/Overview')).html);
    expect(overview.models.length).toBeLessThan(all.length);
    expect(overview.overview?.total).toBe(all.length);
    expect(body((await page('/APIs/Overview')).html)).toContain(`${all.length} services`);
    const flux = hydration((await page('/APIs/Overview?q=flux')).html);
    expect(flux.models).toContain('black-forest-labs/flux-schnell');
    expect(flux.models).not.toContain('openai/whisper');
  });

  it("renders a service's description as the browser's sanitiser does: its markup kept, its script dropped", async () => {
    const id = 'ideogram-ai/ideogram-v2';
    const service = `/APIs/service/${id}`;
    const { db } = server.platform.database;
    const [row] = await db.selectFrom('models').select(['model_desc']).where('id', '=', id).execute();
    const description =
      'Posters <i>spelled right</i>, see <a href="https://example.com/docs">the docs</a>.<script>alert("desc")</script><ul><li>logos</li></ul>';
    await db.updateTable('models').set({ model_desc: description }).where('id', '=', id).execute();
    try {
      await expect.poll(async () => body((await page(service)).html), { timeout: 5_000 }).toContain('<i>spelled right</i>');
      const html = body((await page(service)).html);
      // The same output as the browser's DOMPurify call (src/catalogue/sanitize.ts) gives.
      expect(html).toContain('Posters <i>spelled right</i>, see <a href="https://example.com/docs">the docs</a>.<ul><li>logos</li></ul>');
      expect(html).not.toMatch(/<script>alert/);
      expect(html).not.toContain('alert("desc")');
    } finally {
      await db.updateTable('models').set({ model_desc: row!.model_desc }).where('id', '=', id).execute();
    }
  });

  it('answers an unknown service with 404 and its own page, redirects as the router does', async () => {
    const missing = await page('/APIs/service/nobody/no-such-service');
    expect(missing.status).toBe(404);
    expect(body(missing.html)).toContain('<h1');
    expect(meta(missing.html, 'description')).toBeTruthy();
    expect((await page('/APIs')).headers.get('location')).toBe('/APIs/Overview');
    const unknown = await page('/no/such/page');
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get('location')).toBe('/404');
  });

  it('leaves the account area to the browser: the shell, no content, no data', async () => {
    const { status, html } = await page('/account/billing');
    expect(status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('limelight-hydration');
  });

  it("a page the browser renders carries its own title, not the home page's (issue 50, item 7)", async () => {
    const { status, html } = await page('/signinup?page_state=1');
    expect(status).toBe(200);
    expect(title(html)).toBe('Sign in · Limelight');
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(canonical(html)).toBe(`${server.url}/signinup`);
    // Still the browser's to render: the empty root, no hydration data.
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('limelight-hydration');
  });

  it('keeps a page until the catalogue changes, then renders it again', async () => {
    const service = '/APIs/service/black-forest-labs/flux-schnell';
    const first = await page(service);
    const again = await fetch(`${server.url}${service}`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const { db } = server.platform.database;
    const renamed = 'Flux Schnell, renamed by the render test';
    const [row] = await db.selectFrom('models').select(['id', 'display_name']).where('id', '=', 'black-forest-labs/flux-schnell').execute();
    await db.updateTable('models').set({ display_name: renamed }).where('id', '=', row!.id).execute();
    try {
      await expect.poll(async () => title((await page(service)).html), { timeout: 5_000 }).toBe(`${renamed} · Limelight`);
    } finally {
      await db.updateTable('models').set({ display_name: row!.display_name }).where('id', '=', row!.id).execute();
    }
  });
});
