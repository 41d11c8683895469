import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { log, withRequestId } from '../log';

// Gives each request an id that every log line written while it is handled carries (log.ts):
// the caller's X-Request-Id when it is a plain token (a proxy's or a client's id, so lines can
// be matched across systems), else a new one. With LOG_REQUESTS, one line per request: method,
// path (never the query: it can carry tokens and addresses), status and duration.

export const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIdOf(header: string | undefined): string {
  return header && ACCEPTED_ID.test(header) ? header : randomUUID();
}

export function requestContext(options: { logRequests: boolean }): MiddlewareHandler {
  return (c, next) =>
    withRequestId(requestIdOf(c.req.header(REQUEST_ID_HEADER)), async () => {
      const started = performance.now();
      await next();
      if (options.logRequests) {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms }, `${c.req.method} ${c.req.path} ${c.res.status}`);
      }
    });
}
