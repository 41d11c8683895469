// A third-party page for the embed tests: a tiny static server (node:http) serving
// test/fixtures/embed at / and the built script-tag bundles (dist/cdn) at /cdn, every response
// with the strict Content-Security-Policy of issue 6. The API is another origin (the platform
// server Playwright starts), reached cross-origin, so CORS and `connect-src` are exercised.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtureDir = path.join(root, 'test/fixtures/embed');
const cdnDir = path.join(root, 'dist/cdn');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface EmbedServerOptions {
  /** Platform API origin (the Playwright baseURL). */
  apiUrl: string;
  /** Auth service origin; defaults to apiUrl. */
  authUrl?: string;
  /** Public key of the auth service. */
  authKey: string;
  /** Port to listen on; the platform server must allow this origin (CORS_ORIGINS). 0 = any. */
  port?: number;
  host?: string;
}

export interface EmbedServer {
  /** Origin of the fixture page, e.g. http://127.0.0.1:4321 */
  url: string;
  /** The policy of issue 6, sent with every response. */
  csp: string;
  /**
   * The same plus `img-src 'self' data: <api>`, sent when the page URL has `?thumbnails`: the
   * search results show service images from the API origin (and an SVG data: URI as the
   * fallback), which `default-src 'self'` alone blocks.
   */
  cspWithThumbnails: string;
  close(): Promise<void>;
}

/** issue 6: `default-src 'self'; script-src 'self'; style-src 'self'; connect-src <api>` */
export function embedCsp(apiUrl: string, authUrl = apiUrl, { thumbnails = false } = {}): string {
  const connect = [...new Set([new URL(apiUrl).origin, new URL(authUrl).origin])].join(' ');
  const policy = `default-src 'self'; script-src 'self'; style-src 'self'; connect-src ${connect}`;
  return thumbnails ? `${policy}; img-src 'self' data: ${new URL(apiUrl).origin}` : policy;
}

function resolveFile(urlPath: string): string | null {
  const clean = decodeURIComponent(urlPath.split('?')[0]!);
  const [base, rel] = clean.startsWith('/cdn/') ? [cdnDir, clean.slice('/cdn/'.length)] : [fixtureDir, clean.slice(1) || 'index.html'];
  const file = path.resolve(base, rel);
  if (!file.startsWith(base + path.sep)) return null; // no ../ escapes
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

export async function startEmbedServer(options: EmbedServerOptions): Promise<EmbedServer> {
  if (!existsSync(path.join(cdnDir, 'lime-service-search.js'))) {
    throw new Error('dist/cdn is missing: build the script-tag bundles first (npx rollup -c --only cdn, or npm run build)');
  }
  const authUrl = options.authUrl ?? options.apiUrl;
  const csp = embedCsp(options.apiUrl, authUrl);
  const cspWithThumbnails = embedCsp(options.apiUrl, authUrl, { thumbnails: true });
  const host = options.host ?? '127.0.0.1';

  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://fixture').searchParams;
    res.setHeader('Content-Security-Policy', query.has('thumbnails') ? cspWithThumbnails : csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    const file = resolveFile(req.url ?? '/');
    if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    let body: Buffer | string = readFileSync(file);
    if (file.endsWith('.html')) {
      // The page is plain HTML; only the endpoints, known at run time, are filled in.
      body = body
        .toString('utf8')
        .replaceAll('%API_URL%', options.apiUrl)
        .replaceAll('%AUTH_URL%', authUrl)
        .replaceAll('%AUTH_KEY%', options.authKey);
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('embed server has no port');
  return {
    url: `http://${host}:${address.port}`,
    csp,
    cspWithThumbnails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The fixture page's server for the platform Playwright started (`baseURL`): its API and auth
 * endpoints from the site's /config.json, on the port the platform allows by CORS
 * (playwright.config.ts sets LIME_EMBED_PORT and the server's CORS_ORIGINS together).
 */
export async function startEmbedServerFor(baseURL: string): Promise<EmbedServer> {
  const config = (await (await fetch(`${baseURL}/config.json`)).json()) as { apiUrl?: string; authUrl?: string; authKey: string };
  const apiUrl = (config.apiUrl || baseURL).replace(/\/+$/, '');
  return startEmbedServer({
    apiUrl,
    authUrl: config.authUrl || apiUrl,
    authKey: config.authKey,
    port: Number(process.env.LIME_EMBED_PORT ?? 0),
  });
}
