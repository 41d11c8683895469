import { cors } from 'hono/cors';
import type { ServerConfig } from '../config';

// CORS for third-party sites that embed the widgets (CORS_ORIGINS): they call the auth API and
// the platform API from the browser with a bearer token, no cookies.

export const CORS_ALLOW_HEADERS = ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version', 'x-retry-count'];

export function corsMiddleware(config: ServerConfig) {
  const site = new URL(config.publicUrl).origin;
  const allowed = config.corsOrigins === '*' ? null : new Set([site, ...config.corsOrigins]);
  return cors({
    origin: (origin) => (allowed === null ? origin || '*' : allowed.has(origin) ? origin : null),
    allowHeaders: CORS_ALLOW_HEADERS,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: ['X-Supabase-Api-Version', 'Retry-After'],
    maxAge: 600,
  });
}
