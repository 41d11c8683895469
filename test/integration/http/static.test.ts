import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/precompress.mjs';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';

// The built app as served: build-time brotli/gzip copies chosen by Accept-Encoding, hashed
// assets immutable, HTML revalidated with an ETag (docs/deploy.md).

function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

let server: PlatformTestServer;
let appDir: string;
const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<p>limelight</p>'.repeat(100)}</body></html>`;

beforeAll(async () => {
  appDir = mkdtempSync(path.join(tmpdir(), 'lime-static-'));
  mkdirSync(path.join(appDir, 'assets'));
  writeFileSync(path.join(appDir, 'index.html'), html);
  writeFileSync(path.join(appDir, 'assets/app-abc123.js'), script);
  writeFileSync(path.join(appDir, 'assets/only-gzip-1.js'), script);
  writeFileSync(path.join(appDir, 'assets/tiny-2.js'), 'export {};\n');
  await precompress(appDir);
  rmSync(path.join(appDir, 'assets/only-gzip-1.js.br'));
  server = await startPlatformServer({ serveApp: true, env: { APP_DIR: appDir } });
});
afterAll(async () => {
  await server?.close();
  rmSync(appDir, { recursive: true, force: true });
});

describe('static files', () => {
  it('sends the brotli copy to a client that accepts it, immutable for hashed assets', async () => {
    const answer = await rawGet(`${server.url}/assets/app-abc123.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
  });

  it('sends gzip when brotli is refused or was not built, and the file itself to clients without either', async () => {
    const gz = await rawGet(`${server.url}/assets/app-abc123.js`, { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(script);
    const fallback = await rawGet(`${server.url}/assets/only-gzip-1.js`, { 'Accept-Encoding': 'br' });
    expect(fallback.headers['content-encoding']).toBeUndefined();
    const fallbackGzip = await rawGet(`${server.url}/assets/only-gzip-1.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(fallbackGzip.headers['content-encoding']).toBe('gzip');
    const plain = await rawGet(`${server.url}/assets/app-abc123.js`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('files too small to gain are served as they are', async () => {
    const answer = await rawGet(`${server.url}/assets/tiny-2.js`, { 'Accept-Encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe('export {};\n');
  });

  it('HTML (also for app routes) is revalidated: no-cache, ETag, 304', async () => {
    const page = await rawGet(`${server.url}/account/billing`, { 'Accept-Encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.body).toString()).toBe(html);
    const etag = page.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await rawGet(`${server.url}/`, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('a rebuilt file is served new, not from memory', async () => {
    const first = await rawGet(`${server.url}/assets/tiny-2.js`);
    writeFileSync(path.join(appDir, 'assets/tiny-2.js'), 'export const rebuilt = true;\n');
    const second = await rawGet(`${server.url}/assets/tiny-2.js`);
    expect(second.body.toString()).toBe('export const rebuilt = true;\n');
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it('a missing asset is 404, not the app', async () => {
    expect((await rawGet(`${server.url}/assets/missing-3.js`)).status).toBe(404);
  });
});
