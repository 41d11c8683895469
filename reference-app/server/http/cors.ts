import type { MiddlewareHandler } from 'hono';
import type { CoreConfig } from '../config/core';
import { appendVary } from './encoding';

// CORS for third-party sites that embed the widgets (CORS_ORIGINS): they call the auth API and
// the platform API from the browser with a bearer token, no cookies.
//
// The same headers hono/cors sends, but written onto the final answer after the route has run.
// hono/cors sets them on `c.res` before the route, which makes Hono copy them into the route's
// answer by rebuilding it around a web stream: the slowest way @hono/node-server can write a
// response, and most of the cost of a cached catalogue read (docs/deploy.md, "Throughput").

// Every header the library's clients and @limelight/client (docs/sdk.md) send from browsers
// (test/unit/server/http/cors-client-headers.test.ts runs the library's): supabase-js's, and the
// job API's Prefer, Idempotency-Key and Last-Event-ID.
export const CORS_ALLOW_HEADERS = [
  'authorization',
  'apikey',
  'content-type',
  'x-client-info',
  'x-supabase-api-version',
  'x-retry-count',
  'idempotency-key',
  'prefer',
  'last-event-id',
];
export const CORS_ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const CORS_EXPOSE_HEADERS = ['X-Supabase-Api-Version', 'Retry-After', 'Location', 'Idempotent-Replayed', 'Preference-Applied'];
const MAX_AGE_SECONDS = 600;

/** Which origin a caller's `Origin` is granted (any with CORS_ORIGINS=*, else the site's and the listed ones). */
export type CorsGrant = (origin: string | null | undefined) => string | undefined;

export function corsGrant(config: Pick<CoreConfig, 'publicUrl' | 'corsOrigins'>): CorsGrant {
  const site = new URL(config.publicUrl).origin;
  const allowed = config.corsOrigins === '*' ? null : new Set([site, ...config.corsOrigins]);
  return (origin) => (allowed === null ? origin || '*' : origin && allowed.has(origin) ? origin : undefined);
}

/**
 * The headers an answer (not a preflight) gets for a caller from `origin`, given the answer's
 * Vary: the grant depends on the Origin. Also written by the catalogue's fast lane.
 */
export function corsAnswerHeaders(
  grant: CorsGrant,
  origin: string | null | undefined,
  vary: string | null | undefined,
): Record<string, string> {
  const granted = grant(origin);
  return {
    ...(granted ? { 'Access-Control-Allow-Origin': granted } : {}),
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(','),
    Vary: appendVary(vary, 'Origin'),
  };
}

export function corsMiddleware(config: Pick<CoreConfig, 'publicUrl' | 'corsOrigins'>): MiddlewareHandler {
  const grant = corsGrant(config);
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      // A preflight is answered here, before any route or body limit. The allowed headers are
      // announced whatever Access-Control-Request-Headers asked, hence its place in Vary.
      const granted = grant(c.req.header('origin'));
      const headers: Record<string, string> = {
        ...(granted ? { 'Access-Control-Allow-Origin': granted } : {}),
        'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(','),
        Vary: 'Origin, Access-Control-Request-Headers',
        'Access-Control-Max-Age': String(MAX_AGE_SECONDS),
        'Access-Control-Allow-Methods': CORS_ALLOW_METHODS.join(','),
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(','),
      };
      return new Response(null, { status: 204, headers });
    }
    await next();
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(corsAnswerHeaders(grant, c.req.header('origin'), headers.get('vary')))) {
      headers.set(name, value);
    }
  };
}
