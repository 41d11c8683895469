import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';

// Serves the built reference app (dist/app). Files are served as they are; any other GET path
// without a file extension gets index.html, so the app's router handles deep links
// (/account/billing, /APIs/service/owner/name) on reload.

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

export function staticApp(appDir: string) {
  const root = path.resolve(appDir);
  return async (c: Context) => {
    const urlPath = c.req.path;
    let file = urlPath === '/' ? undefined : await fileIn(root, urlPath);
    const isAsset = /\.[a-z0-9]{1,8}$/i.test(urlPath) && !urlPath.endsWith('.html');
    if (!file && isAsset) return c.text(`Not found: ${urlPath}`, 404);
    file ??= path.join(root, 'index.html');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return c.html(NOT_BUILT, 503);
    }
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    // Vite fingerprints everything under assets/; index.html must always be revalidated.
    const cache = urlPath.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    return c.body(new Uint8Array(body), 200, { 'Content-Type': type, 'Cache-Control': cache });
  };
}
