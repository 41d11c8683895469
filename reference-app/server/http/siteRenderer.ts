import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context, Hono } from 'hono';
import type { CoreConfig } from '../config/core';
import { log } from '../log';
import { repoStatsSource, type RepoStatsSource } from '../site/repoStats';
import type { CatalogueCache } from './catalogueCache';
import { descriptionPurifier } from './descriptionPurifier';
import { compress, preferredEncoding, type Bytes, type Encoding } from './encoding';
import { etagOf, matchesEtag } from './etag';
import { moduleAssets, pageShell, type Manifest } from './siteAssets';
import { staticApp } from './staticApp';

// The public pages rendered on the server (docs/deploy.md, "Server-rendered pages"): the app's
// own server build (dist/server/ssr/entry-server.js, made by `vite build` beside dist/app) runs
// the route loaders and React's streaming render; the answer holds the page's content, title,
// description, canonical URL and link-preview tags, and the data the browser hydrates with.
// Pages are kept per catalogue version (catalogueCache.ts: every catalogue write changes it), so
// a page is rendered once per change, not per visit. A page the browser renders (sign-in, the
// account area) is the plain shell with its own title in the head; files and anything without a
// server build go to staticApp as before.

/** The module contract of src/entry-server.tsx (its types live with the app, built apart). */
interface RenderModule {
  htmlClass: string;
  render(request: {
    request: Request;
    config: { apiUrl: string; authUrl: string; authKey: string };
    context: { catalogue(): Promise<unknown>; repoStats(): unknown; openapi(): Promise<unknown> };
    origin: string;
    purifier?: unknown;
  }): Promise<
    | { kind: 'response'; response: Response }
    | { kind: 'client'; head?: string }
    | { kind: 'page'; status: number; head: string; modules: string[]; body: ReadableStream<Uint8Array>; data: string }
  >;
}

interface Build {
  /** index.html's mtime: a rebuild is picked up on the next request. */
  mtimeMs: number;
  module: RenderModule;
  template: string;
  manifest: Manifest;
}

interface CachedPage {
  status: number;
  etag: string;
  body: Bytes;
  encoded: Partial<Record<Encoding, Promise<Bytes>>>;
}

/** Pages kept (each a few tens of KB): the public pages plus recent catalogue searches and services. */
const MAX_PAGES = 500;
/** A last path segment with an extension is a file (the app's service paths may hold dots). */
const FILE_PATH = /\.[A-Za-z0-9]+$/;

export interface SiteRendererOptions {
  config: Pick<CoreConfig, 'appDir' | 'publicUrl'>;
  publishableKey: string;
  /** The platform's own app, asked in-process for the public catalogue (through its cache). */
  app: Pick<Hono, 'request'>;
  catalogue?: Pick<CatalogueCache, 'version'>;
  /** The server build's directory. @default dist/server/ssr beside appDir */
  ssrDir?: string;
  repoStats?: RepoStatsSource;
}

export function siteRenderer(options: SiteRendererOptions) {
  const { config, app, catalogue } = options;
  const appDir = path.resolve(config.appDir);
  const ssrDir = path.resolve(options.ssrDir ?? path.join(appDir, '../server/ssr'));
  const serveStatic = staticApp(appDir);
  const repo = options.repoStats ?? repoStatsSource();
  const siteConfig = { apiUrl: config.publicUrl, authUrl: config.publicUrl, authKey: options.publishableKey };
  const origin = new URL(config.publicUrl).origin;
  const pages = new Map<string, CachedPage>();
  let pagesVersion = '';
  let build: { mtimeMs: number; loading: Promise<Build | undefined> } | undefined;
  let warned = false;

  async function loadBuild(): Promise<Build | undefined> {
    const templateFile = path.join(appDir, 'index.html');
    const entry = path.join(ssrDir, 'entry-server.js');
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(templateFile)).mtimeMs;
      await stat(entry);
    } catch {
      if (!warned) log.warn(`No server build in ${ssrDir}: pages are rendered in the browser (npm run build:app)`);
      warned = true;
      return undefined;
    }
    if (build?.mtimeMs !== mtimeMs) {
      // The template and manifest follow a rebuild; the module is Node's, loaded once per process
      // (its chunks import the entry by its plain URL, so a second copy would bring a second React).
      // The description purifier's jsdom loads beside the module, not after it, on the first render.
      void descriptionPurifier();
      const loading = (async () => ({
        mtimeMs,
        module: (await import(pathToFileURL(entry).href)) as RenderModule,
        template: await readFile(templateFile, 'utf8'),
        manifest: JSON.parse(await readFile(path.join(appDir, '.vite/manifest.json'), 'utf8')) as Manifest,
      }))();
      build = { mtimeMs, loading };
      loading.catch(() => (build = undefined));
    }
    return build.loading;
  }

  /** The catalogue as an anonymous visitor reads it, from the platform's own routes. */
  let catalogueRead: { version: number | undefined; data: Promise<unknown> } | undefined;
  async function readJson(url: string): Promise<unknown> {
    const response = await app.request(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.json();
  }
  function publicCatalogue(version: number | undefined) {
    if (!catalogueRead || version === undefined || catalogueRead.version !== version) {
      const data = Promise.all([
        readJson('/v1/model_management/model_descriptors'),
        readJson('/v1/model_management/model_categories'),
      ]).then(([models, categories]) => ({ models, categories, loadedAt: Date.now() }));
      catalogueRead = { version, data };
      data.catch(() => (catalogueRead = undefined));
    }
    return catalogueRead.data;
  }

  async function renderPage(c: Context, built: Build, stats: { stars: number; forks: number }, version: number | undefined) {
    const result = await built.module.render({
      // HEAD reads the same page as GET (the static handler would treat any other method as a form post).
      request: new Request(c.req.url, { headers: c.req.raw.headers }),
      config: siteConfig,
      context: {
        // A catalogue that cannot be read renders the page without it; the browser loads it then.
        catalogue: () => publicCatalogue(version).catch(() => null),
        repoStats: () => stats,
        // The API reference's source (/docs/api): the document of the routes this server has.
        openapi: () => readJson('/v1/openapi.json'),
      },
      origin,
      purifier: await descriptionPurifier(),
    });
    if (result.kind === 'client') return result.head ? shellPage(built, result.head) : result;
    if (result.kind !== 'page') return result;
    const assets = moduleAssets(built.manifest, result.modules, built.template);
    const shell = pageShell(built.template, { head: result.head, htmlClass: built.module.htmlClass, ...assets });
    const html = Buffer.concat([
      Buffer.from(shell.prefix),
      new Uint8Array(await new Response(result.body).arrayBuffer()),
      Buffer.from(shell.suffix(result.data)),
    ]);
    const body = new Uint8Array(html.buffer, html.byteOffset, html.byteLength) as Bytes;
    return { kind: 'page' as const, page: { status: result.status, etag: etagOf(body), body, encoded: {} } satisfies CachedPage };
  }

  /** The browser-rendered shell with a page's own head (its title and description), kept as a page. */
  function shellPage(built: Build, head: string) {
    const shell = pageShell(built.template, { head, htmlClass: built.module.htmlClass, css: [], scripts: [] });
    const html = Buffer.from(`${shell.prefix}${shell.suffix('')}`);
    const body = new Uint8Array(html.buffer, html.byteOffset, html.byteLength) as Bytes;
    return { kind: 'page' as const, page: { status: 200, etag: etagOf(body), body, encoded: {} } satisfies CachedPage };
  }

  function answer(c: Context, page: CachedPage, encoding: Encoding | undefined, body: Bytes) {
    const headers: Record<string, string> = {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
      ETag: encoding ? `W/${page.etag}` : page.etag,
    };
    if (encoding) headers['Content-Encoding'] = encoding;
    if (matchesEtag(c.req.header('if-none-match'), page.etag)) return c.body(null, 304, headers);
    if (c.req.method === 'HEAD') return c.body(null, page.status as 200, headers);
    return c.body(body, page.status as 200, headers);
  }

  const handler = async (c: Context): Promise<Response> => {
    const urlPath = c.req.path;
    if (FILE_PATH.test(urlPath) && !urlPath.startsWith('/APIs/')) return serveStatic(c);
    const built = await loadBuild();
    if (!built) return serveStatic(c);
    const version = catalogue?.version;
    const stats = repo.current();
    const key = `${built.mtimeMs}:${version}:${stats.stars}:${stats.forks}`;
    if (key !== pagesVersion) {
      pages.clear();
      pagesVersion = key;
    }
    const url = new URL(c.req.url);
    const pageKey = `${url.pathname}${url.search}`;
    let page = pages.get(pageKey);
    if (!page) {
      let rendered;
      try {
        rendered = await renderPage(c, built, stats, version);
      } catch (error) {
        // The browser can still render it: a failing server render never costs the visitor the page.
        log.error({ err: error, path: urlPath }, 'server render failed; the page is rendered in the browser');
        return serveStatic(c);
      }
      if (rendered.kind === 'response') return rendered.response;
      if (rendered.kind === 'client') return serveStatic(c);
      page = rendered.page;
      // Kept only while the catalogue's version is known (a write could otherwise go unseen).
      if (version !== undefined && pagesVersion === key) {
        if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
        pages.set(pageKey, page);
      }
    }
    const encoding = preferredEncoding(c.req.header('accept-encoding'));
    if (!encoding) return answer(c, page, undefined, page.body);
    const encoded = (page.encoded[encoding] ??= compress(page.body, encoding, 'fast'));
    return answer(c, page, encoding, await encoded);
  };
  /**
   * Loads the server build and the description purifier's jsdom before the first visitor asks
   * (issue 39: the first page after a start waited 1.5 to 2.7 s for them at load 10, and the
   * delivery bench's first load showed it). Answers once both are there; never rejects.
   */
  const warm = async (): Promise<void> => {
    await Promise.all([loadBuild(), descriptionPurifier()]).catch(() => undefined);
  };
  return Object.assign(handler, { warm });
}
