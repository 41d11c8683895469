import type { MiddlewareHandler } from 'hono';
import type { RateLimits } from '../config/core';
import { perAccountRefusal, type RateLimiter } from '../http/rateLimit';
import type { MaybeSignedInEnv } from './authenticate';

// Per-user rate limits on the routes that make the platform work or store: uploading files,
// importing an OpenAPI document (the server fetches and parses it) and health checks (the server
// calls the service). Job creates are limited by the job service itself (jobs/createLimit.ts),
// on every route that creates one. Counted per user in the shared rate-limit store, so every
// server process counts together (docs/security.md, "Limits"). The limits are far above what a
// person or a script that waits for its jobs sends; they stop floods.

type Limited = 'files' | 'imports' | 'healthChecks';

const RULES: Array<{ method: string; path: RegExp; bucket: Limited; what: string }> = [
  { method: 'POST', path: /^\/v1\/files$/, bucket: 'files', what: 'file uploads' },
  { method: 'POST', path: /\/import_openapi$/, bucket: 'imports', what: 'OpenAPI imports' },
  { method: 'POST', path: /\/health_check$/, bucket: 'healthChecks', what: 'health checks' },
];

/** The limit middleware for a route, or undefined when the route is not limited per user. */
export function userRateLimitFor(
  limiter: RateLimiter,
  limits: RateLimits,
  method: string,
  fullPath: string,
): MiddlewareHandler<MaybeSignedInEnv> | undefined {
  const rule = RULES.find((r) => r.method === method.toUpperCase() && r.path.test(`/v1${fullPath}`));
  if (!rule || !limits[rule.bucket]) return undefined;
  const limit = limits[rule.bucket];
  return async (c, next) => {
    const userId = c.var.caller?.userId;
    if (!userId) return next();
    const decision = await limiter.hit(`user-${rule.bucket}`, userId, limit);
    if (!decision.allowed) {
      return c.json({ detail: perAccountRefusal(rule.what, limit, limits.windowSeconds, decision.retryAfter) }, 429, {
        'Retry-After': String(decision.retryAfter),
      });
    }
    return next();
  };
}
