import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { buildApiReference, operationAnchor, operationsOf, type OpenApiDocument } from '../../../reference-app/src/docs/apiReference';
import { DOCS } from '../../../reference-app/src/docs/manifest';
import { apiClients, confirmedUser, signedIn } from '../helpers';

// The docs on the site as the server answers them, before any script runs (issue 50, item 5):
// each page's own title and description, the guides' content from docs/*.md, and an API reference
// that lists every operation of the server's own OpenAPI document. Set up as
// server-render.test.ts is (the app's server entry from its source); the browser side is
// test/e2e/docs.spec.ts.

const root = path.resolve(import.meta.dirname, '../../..');
let server: PlatformTestServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'lime-docs-'));
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
  await fetch(`${server.url}/docs`);
}, 180_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function page(pathname: string) {
  const response = await fetch(`${server.url}${pathname}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}
const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const description = (html: string) => /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
/** The page's body, without the hydration data (which holds the same text again). */
const body = (html: string) => html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');

describe('the docs, rendered by the server', () => {
  it('/docs: the quick start first, then every guide, with its own title and description', async () => {
    const { status, html } = await page('/docs');
    expect(status).toBe(200);
    expect(title(html)).toBe('Documentation · Limelight');
    expect(description(html)).toMatch(/^Limelight documentation: a quick start/);
    const content = body(html);
    expect(content).toContain('<h1>Documentation</h1>');
    const quickStart = content.indexOf('Create an API key');
    const guides = content.indexOf('Guides and reference');
    expect(quickStart).toBeGreaterThan(0);
    expect(guides).toBeGreaterThan(quickStart);
    for (const doc of DOCS.slice(1)) expect(content).toContain(`href="/docs/${doc.slug}"`);
    expect(content).toContain('href="/docs/api"');
    // The header's Docs menu points here, not to GitHub.
    expect(content).not.toContain('github.com/limelight-ai/limelight-python');
  });

  it('each guide: its title, description, anchored headings, docs links rewritten and code blocks', async () => {
    for (const doc of DOCS) {
      const { status, html } = await page(`/docs/${doc.slug}`);
      expect(status, doc.slug).toBe(200);
      expect(title(html), doc.slug).toBe(`${doc.title} · Limelight`);
      expect(description(html), doc.slug).toBe(doc.description.replace(/'/g, '&#39;'));
    }
    const run = body((await page('/docs/run')).html);
    expect(run).toContain('<h2 id="streaming-sse">Streaming (SSE)');
    expect(run).toContain('curl -s http://localhost:3000/v1/jobs');
    expect(run).not.toMatch(/href="[^"]*\.md[#"]/);
  });

  it('/docs?q= answers the search in the HTML, for visitors without JavaScript', async () => {
    const { status, html } = await page('/docs?q=webhook-signature');
    expect(status).toBe(200);
    const content = body(html);
    expect(content).toContain('value="webhook-signature"');
    expect(content).toMatch(/<ul[^>]*aria-label="Search results"[\s\S]*href="\/docs\/run#webhooks"/);
    expect(body((await page('/docs')).html)).not.toContain('aria-label="Search results"');
  });

  it('an unknown guide goes to the 404 page', async () => {
    const { status, headers } = await page('/docs/no-such-guide');
    expect(status).toBe(302);
    expect(headers.get('location')).toBe('/404');
  });

  it('/docs/api lists every operation of the OpenAPI document, with its samples', async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as OpenApiDocument;
    const { status, html } = await page('/docs/api');
    expect(status).toBe(200);
    expect(title(html)).toBe('API reference · Limelight');
    const content = body(html);
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(40);
    const missing = operations.filter((op) => {
      const [method, path] = op.split(' ') as [string, string];
      return (
        !content.includes(`id="${operationAnchor(method, path)}"`) ||
        !content.includes(`<code class="`) ||
        !content.includes(`>${path}</code>`)
      );
    });
    expect(missing).toEqual([]);
    // Every operation section in the page is one of the document's.
    const sections = [...content.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]);
    expect(sections.sort()).toEqual(operations.map((op) => operationAnchor(...(op.split(' ') as [string, string]))).sort());
    // The create-a-job route: its body's fields, an error and its cURL sample, in the HTML.
    const create = content.slice(content.indexOf(`id="${operationAnchor('POST', '/jobs')}"`));
    expect(create).toContain('service_id');
    expect(create).toContain('402');
    expect(create).toContain(`curl -sS -X POST &#x27;${server.url}/v1/jobs&#x27;`);
  });

  it("the reference's samples run as copied: cURL, Python and JavaScript, signed out and with an API key", async () => {
    const doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as OpenApiDocument;
    const operations = buildApiReference(doc).groups.flatMap((g) => g.operations);
    const user = await signedIn(server, await confirmedUser(server, 'docs'));
    const created = await apiClients(server, user.session.access_token).profile.createApiKey();
    if (!created.ok) throw new Error(created.error);
    const env = { ...process.env, LIMELIGHT_API_KEY: created.data.secret };
    // Asynchronously: the server answering the samples runs in this process.
    const run = async (command: string, args: string[]) =>
      (await promisify(execFile)(command, args, { env, encoding: 'utf8', timeout: 20_000 })).stdout;
    for (const [method, path, expected] of [
      ['GET', '/model_management/model_categories', '"id"'],
      ['GET', '/jobs', '"next_cursor"'],
    ] as const) {
      const op = operations.find((o) => o.method === method && o.path === path)!;
      expect(op, path).toBeDefined();
      expect(await run('bash', ['-c', op.samples.curl]), `${path} curl`).toContain(expected);
      expect(await run('/usr/bin/python3', ['-c', op.samples.python]), `${path} python`).toContain(expected.replace(/"/g, "'"));
      expect(await run(process.execPath, ['--input-type=module', '-e', op.samples.javascript]), `${path} js`).toMatch(/^200 /);
    }
  });
});
