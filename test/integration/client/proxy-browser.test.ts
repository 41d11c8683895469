import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as LimelightSdk from '@limelight/client';
import { createProxy, toNodeListener } from '../../../packages/client/src/proxy';
import { chromiumArgs, chromiumExecutable } from '../../setup/chromium';
import { globalServer } from '../helpers';
import { keyedUser } from './fixtures';
import { TEXT2IMG } from '../../client/scenarios';

// The server-side proxy (docs/sdk.md, "A proxy for browsers") from real Chromium: a web app's
// page on one origin runs @limelight/client, holding no key, through the proxy on another origin,
// which forwards to the shared test server with the app server's key. The same page from an
// origin the proxy does not list gets nothing: its preflight is refused and the browser blocks it.

const server = globalServer();
const closers: (() => Promise<unknown>)[] = [];
let browser: Browser;
let page: string;
let proxy: string;
/** The Origin of each request the proxy saw, with its method, path and answer. */
const seen: string[] = [];

/** The web app's page: it loads the SDK and hands it to the test. */
const APP_PAGE = `<!doctype html><title>A web app</title>
<script type="module">import * as sdk from '/sdk.js'; window.limelight = sdk;</script>`;

async function listen(http: Server): Promise<number> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => http.close(resolve)));
  return (http.address() as AddressInfo).port;
}

beforeAll(async () => {
  const { apiKey } = await keyedUser(server, 'proxy-browser');
  // The SDK as a web app's bundler would ship it: one ES module for the browser.
  const bundle = await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../../packages/client/src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
  });
  const pagePort = await listen(
    createServer((req, res) => {
      if (req.url === '/sdk.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(bundle.outputFiles[0]!.contents);
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end(APP_PAGE);
    }),
  );
  page = `http://127.0.0.1:${pagePort}`;
  const forward = toNodeListener(createProxy({ apiKey, baseUrl: server.url, prefix: '/api/limelight', allowedOrigins: [page] }).handle);
  const proxyPort = await listen(
    createServer((req: IncomingMessage, res) => {
      res.on('finish', () => seen.push(`${req.headers.origin ?? '-'} ${req.method} ${req.url} ${res.statusCode}`));
      forward(req, res);
    }),
  );
  proxy = `http://127.0.0.1:${proxyPort}/api/limelight`;
  browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
  closers.push(() => browser.close());
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** Runs a text-to-image job from a page of `origin` through the proxy; what the page saw. */
async function runFrom(origin: string) {
  const tab = await browser.newPage();
  try {
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => 'limelight' in window);
    return await tab.evaluate(
      async ({ proxy, service }) => {
        const sdk = (window as unknown as { limelight: typeof LimelightSdk }).limelight;
        // No key and no token: the proxy holds the key. No retries: a refusal is final here.
        const client = sdk.createClient({ baseUrl: proxy, retry: { retries: 0 } });
        const statuses: string[] = [];
        try {
          const output = (await client.run(service, {
            input: { prompt: 'from another origin', width: 64, height: 64 },
            onEvent: (event) => statuses.push(event.job.status),
          })) as { image: { content_type: string; url(): string } };
          const upload = await client.upload(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }));
          return { statuses, image: output.image.content_type, url: output.image.url(), uploaded: upload.size };
        } catch (error) {
          return { statuses, error: (error as Error).name };
        }
      },
      { proxy, service: TEXT2IMG },
    );
  } finally {
    await tab.close();
  }
}

it('a page on another origin runs, follows and uploads through the proxy without a key', async () => {
  const result = await runFrom(page);
  expect(result).toMatchObject({ image: 'image/png', uploaded: 3 });
  expect(result.statuses.at(-1)).toBe('FINISHED');
  expect(result.url).toMatch(new RegExp(`^${server.url}/media/files/`));
  // The create's preflight (Content-Type, Idempotency-Key) passed, and the calls came from the page.
  expect(seen).toContain(`${page} OPTIONS /api/limelight/v1/jobs 204`);
  expect(seen.some((s) => s.startsWith(`${page} POST /api/limelight/v1/jobs 20`))).toBe(true);
  expect(seen.some((s) => new RegExp(`^${page} GET /api/limelight/v1/jobs/[^/]+/stream 200$`).test(s))).toBe(true);
}, 30_000);

it('a page on an origin the proxy does not list gets nothing: the preflight is refused', async () => {
  const other = page.replace('127.0.0.1', 'localhost');
  seen.length = 0;
  const result = await runFrom(other);
  expect(result).toMatchObject({ statuses: [], error: 'ConnectionError' });
  expect(seen).toEqual([`${other} OPTIONS /api/limelight/v1/jobs 403`]);
}, 30_000);
