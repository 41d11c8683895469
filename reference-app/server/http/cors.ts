import type { MiddlewareHandler } from 'hono';
import type { ServerConfig } from '../config';
import { appendVary } from './encoding';

// CORS for third-party sites that embed the widgets (CORS_ORIGINS): they call the auth API and
// the platform API from the browser with a bearer token, no cookies.
//
// The same headers hono/cors sends, but written onto the final answer after the route has run.
// hono/cors sets them on `c.res` before the route, which makes Hono copy them into the route's
// answer by rebuilding it around a web stream: the slowest way @hono/node-server can write a
// response, and most of the cost of a cached catalogue read (docs/deploy.md, "Throughput").

export const CORS_ALLOW_HEADERS = ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version', 'x-retry-count'];
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const CORS_EXPOSE_HEADERS = ['X-Supabase-Api-Version', 'Retry-After'];
const MAX_AGE_SECONDS = 600;

export function corsMiddleware(config: Pick<ServerConfig, 'publicUrl' | 'corsOrigins'>): MiddlewareHandler {
  const site = new URL(config.publicUrl).origin;
  const allowed = config.corsOrigins === '*' ? null : new Set([site, ...config.corsOrigins]);
  /** The origin to grant, or undefined: any origin with CORS_ORIGINS=*, else the listed ones. */
  const grant = (origin: string) => (allowed === null ? origin || '*' : allowed.has(origin) ? origin : undefined);
  const exposed = CORS_EXPOSE_HEADERS.join(',');

  return async (c, next) => {
    const origin = grant(c.req.header('origin') ?? '');
    if (c.req.method === 'OPTIONS') {
      // A preflight is answered here, before any route or body limit.
      const headers: Record<string, string> = {
        'Access-Control-Expose-Headers': exposed,
        // The grant depends on the Origin, and the allowed headers are announced in answer to
        // Access-Control-Request-Headers.
        Vary: 'Origin, Access-Control-Request-Headers',
        'Access-Control-Max-Age': String(MAX_AGE_SECONDS),
        'Access-Control-Allow-Methods': CORS_ALLOW_METHODS.join(','),
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(','),
      };
      if (origin) headers['Access-Control-Allow-Origin'] = origin;
      return new Response(null, { status: 204, headers });
    }
    await next();
    const headers = c.res.headers;
    if (origin) headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', exposed);
    headers.set('Vary', appendVary(headers.get('vary'), 'Origin'));
  };
}
