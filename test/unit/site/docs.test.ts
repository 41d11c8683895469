import { readFileSync } from 'node:fs';
import path from 'node:path';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { codeSamples } from '../../../src/components/ServiceRunner/codeSamples';
import { buildApiReference, operationsOf, type OpenApiDocument } from '../../../reference-app/src/docs/apiReference';
import { DOCS, docOfSlug, type DocEntry } from '../../../reference-app/src/docs/manifest';
import { renderDoc, rewriteHref, slugify } from '../../../reference-app/src/docs/render';
import { docsPageData } from '../../../reference-app/src/docs/source';

// The docs on the site (issue 50, item 5; docs/deploy.md, "The docs on the site"): Markdown to
// page (anchors, links between docs, sanitising, code blocks), the published files, the quick
// start's samples, and the API reference made of an OpenAPI document.

const root = path.resolve(import.meta.dirname, '../../..');
const purify = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
const sanitize = (html: string) => purify.sanitize(html);
const entry: DocEntry = { slug: 'guide', file: 'guide.md', title: 'Guide', description: 'A guide' };
const html = (markdown: string) =>
  renderDoc(markdown, entry, sanitize)
    .blocks.filter((b) => b.kind === 'html')
    .map((b) => (b.kind === 'html' ? b.html : ''))
    .join('\n');

describe('Markdown to a docs page', () => {
  it('gives each heading an anchor, unique on the page, and lists h2 and h3', () => {
    const doc = renderDoc('# Title\n\n## Streaming (SSE)\n\ntext\n\n### `limelight.serve` API\n\n## Streaming (SSE)\n', entry, sanitize);
    const out = doc.blocks.map((b) => (b.kind === 'html' ? b.html : '')).join('\n');
    expect(out).toContain('<h2 id="streaming-sse">Streaming (SSE) <a class="doc-anchor" href="#streaming-sse"');
    expect(out).toContain('<h3 id="limelightserve-api"><code>limelight.serve</code> API');
    expect(doc.headings.map((h) => h.id)).toEqual(['streaming-sse', 'limelightserve-api', 'streaming-sse-1']);
    // The page's opening has no text of its own here, so no search entry.
    expect(doc.search.map((s) => s.href)).toEqual([
      '/docs/guide#streaming-sse',
      '/docs/guide#limelightserve-api',
      '/docs/guide#streaming-sse-1',
    ]);
  });

  it('rewrites links between published docs to /docs/<slug>, and unlinks files the site does not publish', () => {
    expect(rewriteHref('jobs.md')).toBe('/docs/run');
    expect(rewriteHref('jobs.md#Streaming (SSE)')).toBe('/docs/run#streaming-sse');
    expect(rewriteHref('../docs/sdk.md#install')).toBe('/docs/sdk#install');
    expect(rewriteHref('./publishing.md')).toBe('/docs/publishing');
    expect(rewriteHref('architecture.md')).toBeNull();
    expect(rewriteHref('../reference-app/server/README.md')).toBeNull();
    expect(rewriteHref('https://example.com/x.md')).toBe('https://example.com/x.md');
    expect(rewriteHref('#calls')).toBe('#calls');
    const out = html('See [the SDK](sdk.md#errors), [the layers](architecture.md#layers) and [Stripe](https://stripe.com).');
    expect(out).toContain('<a href="/docs/sdk#errors">the SDK</a>');
    expect(out).toContain('the layers');
    expect(out).not.toContain('architecture.md');
    expect(out).toContain('<a href="https://stripe.com" rel="noopener noreferrer">Stripe</a>');
  });

  it('sanitises the HTML: no script, no event handler, no javascript: link', () => {
    const out = html(
      'Hi <script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3))\n\n## Head <script>alert(4)</script>\n',
    );
    expect(out).not.toMatch(/<script|onerror|javascript:|alert\([123]\)/);
    expect(out).toContain('<img src="x">');
    expect(out).toContain('<p><a>click</a></p>');
    // In a heading the tag goes; what was between the tags stays, as text.
    expect(out).toContain(
      '<h2 id="head-alert4">Head  <a class="doc-anchor" href="#head-alert4" aria-label="Link to Head alert(4)">#</a></h2>',
    );
  });

  it('makes fenced code a code-viewer block in a language the viewer knows', () => {
    const doc = renderDoc('```sh\ncurl -s x\n```\n\n```py\nprint(1)\n```\n\n```dockerfile\nFROM x\n```\n', entry, sanitize);
    expect(doc.blocks).toEqual([
      { kind: 'code', code: 'curl -s x', language: 'bash' },
      { kind: 'code', code: 'print(1)', language: 'python' },
      { kind: 'code', code: 'FROM x', language: 'text' },
    ]);
  });

  it('keeps the plain text of each section for the search, unescaped', () => {
    const doc = renderDoc("# T\n\nIt's **bold** & <b>raw</b>.\n\n## Webhooks\n\nSigned with `whsec_` keys.\n", entry, sanitize);
    expect(doc.search).toEqual([
      { title: 'Guide', page: 'Guide', href: '/docs/guide', text: "It's bold & raw ." },
      { title: 'Webhooks', page: 'Guide', href: '/docs/guide#webhooks', text: 'Signed with whsec_ keys.' },
    ]);
    expect(slugify('Container deployments and the runner interface')).toBe('container-deployments-and-the-runner-interface');
  });
});

describe('the published docs', () => {
  it('renders every file of the manifest; every /docs link in them names a published page and an anchor it has', async () => {
    const pages = await Promise.all(DOCS.map((d) => docsPageData(d.slug, { purifier: purify })));
    const anchors = new Map(pages.map((p) => [p!.page.kind === 'doc' ? p!.page.doc.slug : '', new Set<string>()]));
    for (const p of pages) {
      if (p?.page.kind !== 'doc') throw new Error('not a doc');
      for (const b of p.page.doc.blocks)
        if (b.kind === 'html') for (const m of b.html.matchAll(/ id="([^"]+)"/g)) anchors.get(p.page.doc.slug)!.add(m[1]!);
    }
    for (const p of pages) {
      if (p?.page.kind !== 'doc') continue;
      expect(p.page.doc.blocks.length, p.page.doc.slug).toBeGreaterThan(3);
      for (const b of p.page.doc.blocks) {
        if (b.kind !== 'html') continue;
        for (const [, slug, anchor] of b.html.matchAll(/href="\/docs\/([^"#]+)(?:#([^"]+))?"/g)) {
          if (slug === 'api') continue;
          expect(docOfSlug(slug!), `${p.page.doc.slug} links /docs/${slug}`).toBeDefined();
          if (anchor) expect(anchors.get(slug!)?.has(anchor), `${p.page.doc.slug} links /docs/${slug}#${anchor}`).toBe(true);
        }
      }
    }
    // The highlighted sections of the index exist.
    const index = await docsPageData(null, { purifier: purify });
    for (const d of DOCS) expect(index!.nav.find((n) => n.slug === d.slug)!.highlights.length).toBe(d.highlights?.length ?? 0);
    expect(await docsPageData('architecture', { purifier: purify })).toBeNull();
  }, 30_000);

  it("the quick start's samples are the API tab's, as a service page makes them", () => {
    const markdown = readFileSync(path.join(root, 'docs/quickstart.md'), 'utf8');
    const samples = codeSamples({
      apiUrl: 'http://localhost:3000',
      serviceId: 'lime-voice',
      endpoint: '/speak',
      input: { text: 'Fresh limes, picked this morning in Seville.', language: 'en-us', voice: 'female-1' },
    });
    const blocks = renderDoc(markdown, DOCS[0]!, sanitize).blocks.filter((b) => b.kind === 'code');
    const code = blocks.map((b) => (b.kind === 'code' ? b.code.trim() : ''));
    expect(code).toContain(samples.curl.trim());
    expect(code).toContain(samples.python.trim());
    expect(code).toContain(samples.javascript.trim());
  });
});

describe('the API reference', () => {
  const doc: OpenApiDocument = {
    info: { title: 'Platform API', description: 'Calls' },
    servers: [{ url: 'https://lime.example/v1' }],
    paths: {
      '/jobs': {
        post: {
          tags: ['jobs'],
          summary: 'Run a service',
          security: [{ bearer: [] }],
          parameters: [{ name: 'prefer', in: 'header', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/JobCreate' } } } },
          responses: {
            '201': { description: 'Queued', content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } } },
            '402': { description: 'Not enough credits' },
          },
        },
      },
      '/jobs/{job_id}': {
        get: {
          tags: ['jobs'],
          summary: 'A job',
          security: [{}, { bearer: [] }],
          parameters: [{ name: 'job_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'The job' } },
        },
        delete: { summary: 'Cancel', responses: { '204': { description: 'Gone' } } },
      },
    },
    components: {
      schemas: {
        JobCreate: {
          type: 'object',
          required: ['service_id', 'input'],
          properties: {
            service_id: { type: 'string', example: 'lime-voice' },
            input: { type: 'object', additionalProperties: true, description: 'Parameter values' },
            webhook: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
        },
        Job: {
          type: 'object',
          required: ['job_id'],
          properties: {
            job_id: { type: 'string', format: 'uuid' },
            status: { type: 'string', enum: ['QUEUED', 'FINISHED'] },
            metrics: { type: 'object', properties: { run_ms: { type: 'integer' } } },
          },
        },
      },
    },
  };

  it('lists every operation, grouped by tag, with fields, errors and auth', () => {
    const ref = buildApiReference(doc);
    expect(operationsOf(doc)).toEqual(['POST /jobs', 'GET /jobs/{job_id}', 'DELETE /jobs/{job_id}']);
    expect(ref.groups.map((g) => [g.tag, g.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ['jobs', ['POST /jobs', 'GET /jobs/{job_id}']],
      ['other', ['DELETE /jobs/{job_id}']],
    ]);
    const create = ref.groups[0]!.operations[0]!;
    expect(create.auth).toBe('required');
    expect(create.requestBody!.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['service_id', 'string', true],
      ['input', 'object', true],
      ['webhook', 'string | null', false],
    ]);
    const job = create.responses.find((r) => r.status === '201')!;
    expect(job.fields.find((f) => f.name === 'status')!.values).toEqual(['QUEUED', 'FINISHED']);
    expect(job.fields.find((f) => f.name === 'metrics')!.fields).toEqual([{ name: 'run_ms', type: 'integer', required: false }]);
    expect(create.responses.map((r) => r.status)).toEqual(['201', '402']);
    expect(ref.groups[0]!.operations[1]!.auth).toBe('optional');
    expect(ref.groups[1]!.operations[0]!.auth).toBe('none');
  });

  it('writes a sample per language that sends the required body to the full URL', () => {
    const [create, get] = buildApiReference(doc).groups[0]!.operations;
    expect(create!.samples.curl).toContain(`curl -sS -X POST 'https://lime.example/v1/jobs'`);
    expect(create!.samples.curl).toContain(`-d '{"service_id":"lime-voice","input":{}}'`);
    expect(create!.samples.python).toContain('"service_id": "lime-voice"');
    expect(create!.samples.python).toContain(`os.environ['LIMELIGHT_API_KEY']`);
    expect(create!.samples.javascript).toContain('method: "POST"');
    expect(get!.samples.curl).toContain('https://lime.example/v1/jobs/JOB_ID');
    expect(get!.samples.javascript).not.toContain('body:');
  });
});
