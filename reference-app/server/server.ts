import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { log } from './log';

// The HTTP server. It listens before the platform exists (so a test server can learn its
// port and use it as PUBLIC_URL), then gets its handler.

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** How long closing waits for requests in flight. */
const CLOSE_GRACE_MS = 10_000;

export interface HttpServer {
  server: Server;
  port: number;
  /** Routes every request to `handler` from now on. */
  use(handler: Handler): void;
  close(): Promise<void>;
}

export async function listen(port: number, host?: string): Promise<HttpServer> {
  let handler: Handler = (_req, res) => {
    res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
    res.end(JSON.stringify({ detail: 'The server is starting' }));
  };
  // Requests in flight, so that closing lets them finish before the database goes away.
  let active = 0;
  let drained: (() => void) | undefined;
  // Counted until the handler finishes, not until the client hangs up: a request whose client
  // left may still be hashing a password or writing to the database.
  const server = createServer((req, res) => {
    active += 1;
    void Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => log.error({ err: error }, 'request handler failed'))
      .finally(() => {
        active -= 1;
        if (active === 0) drained?.();
      });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    use(next) {
      handler = next;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (active > 0) {
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref()),
        ]);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Node handler for the app; API paths never reach Vite. */
export function honoHandler(app: Hono): Handler {
  return getRequestListener(app.fetch) as Handler;
}

const API_PATH = /^\/(v1|auth|dev|media|sandbox|config\.json|health)(\/|$|\?)/;

/**
 * --dev: Vite's dev middleware serves the app with hot reload; the API stays with Hono.
 * Returns the combined handler and a close function for Vite.
 */
export async function withViteDevServer(api: Handler, server: Server): Promise<{ handler: Handler; close(): Promise<void> }> {
  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    configFile: 'reference-app/vite.config.ts',
    server: { middlewareMode: true, ws: { server } },
    appType: 'spa',
  });
  return {
    handler: (req, res) => {
      if (API_PATH.test(req.url ?? '/')) return api(req, res);
      vite.middlewares(req, res, () => api(req, res));
    },
    close: () => vite.close(),
  };
}
