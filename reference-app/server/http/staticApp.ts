import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { etagOf, matchesEtag } from './etag';
import { preferredEncoding, type Bytes, type Encoding } from './encoding';

// Serves the built reference app (dist/app), with the brotli or gzip copy the build made when
// the client accepts it (docs/deploy.md). Any other GET path without a file extension gets
// index.html, so the app's router handles deep links (/account/billing,
// /APIs/service/owner/name) on reload.

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App not built</title></head>
<body style="font-family:system-ui,sans-serif;padding:40px"><h1>The reference app is not built</h1>
<p>Run <code>npm run build:app</code> and reload, or start the server with <code>--dev</code> to serve it through Vite.</p>
<p>The platform API (<a href="/v1/openapi.json">/v1/openapi.json</a>), the auth API (/auth/v1) and the <a href="/dev/mailbox">dev mailbox</a> work regardless.</p></body></html>`;

async function fileIn(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return undefined;
  try {
    return (await stat(file)).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

interface StaticFile {
  mtimeMs: number;
  size: number;
  type: string;
  etag: string;
  /** The file and its build-time compressed copies (scripts/precompress.mjs), when present. */
  bodies: { identity: Bytes } & Partial<Record<Encoding, Bytes>>;
}

async function readOptional(file: string): Promise<Bytes | undefined> {
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    return undefined;
  }
}

/**
 * Files in memory, checked against their mtime on each use: the build output is small (a few
 * MB), read constantly, and replaced as a whole by a rebuild.
 */
class FileCache {
  readonly #files = new Map<string, StaticFile>();

  async get(file: string): Promise<StaticFile | undefined> {
    let info;
    try {
      info = await stat(file);
    } catch {
      return undefined;
    }
    const known = this.#files.get(file);
    if (known && known.mtimeMs === info.mtimeMs && known.size === info.size) return known;
    const identity = await readOptional(file);
    if (!identity) return undefined;
    const [br, gzip] = await Promise.all([readOptional(`${file}.br`), readOptional(`${file}.gz`)]);
    const entry: StaticFile = {
      mtimeMs: info.mtimeMs,
      size: info.size,
      type: TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      etag: etagOf(identity),
      bodies: { identity, ...(br ? { br } : {}), ...(gzip ? { gzip } : {}) },
    };
    this.#files.set(file, entry);
    return entry;
  }
}

export function staticApp(appDir: string) {
  const root = path.resolve(appDir);
  const cache = new FileCache();
  return async (c: Context) => {
    const urlPath = c.req.path;
    let file = urlPath === '/' ? undefined : await fileIn(root, urlPath);
    // A missing file of a type the build emits is a 404; anything else is an app route, even with a
    // dot in it (a service page such as /APIs/service/mistralai/mixtral-8x7b-instruct-v0.1).
    const isAsset = !urlPath.startsWith('/APIs/') && TYPES[path.extname(urlPath).toLowerCase()] !== undefined && !urlPath.endsWith('.html');
    if (!file && isAsset) return c.text(`Not found: ${urlPath}`, 404);
    file ??= path.join(root, 'index.html');
    const entry = await cache.get(file);
    if (!entry) return c.html(NOT_BUILT, 503);
    // Vite fingerprints everything under assets/; index.html must always be revalidated.
    const headers: Record<string, string> = {
      'Content-Type': entry.type,
      'Cache-Control': urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: entry.etag,
    };
    if (entry.bodies.br || entry.bodies.gzip) headers.Vary = 'Accept-Encoding';
    // Only a copy the build made is sent, and only one the client accepts.
    const encoding = preferredEncoding(c.req.header('accept-encoding'), entry.bodies);
    const body = (encoding && entry.bodies[encoding]) || entry.bodies.identity;
    if (body !== entry.bodies.identity) {
      headers['Content-Encoding'] = encoding!;
      headers.ETag = `W/${entry.etag}`;
    }
    if (matchesEtag(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304, headers);
    return c.body(body, 200, headers);
  };
}
