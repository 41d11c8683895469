import { Hono, type MiddlewareHandler } from 'hono';
import type { DatabaseHandle } from '../db/connect';
import { isDatabaseUnavailable } from '../db/errors';
import type { DatabaseHealth } from '../db/health';
import { API_VERSION, API_VERSION_HEADER } from './authApiVersion';

// While the database is unreachable (docs/deploy.md, "When the database goes away") a request
// that needed it answers 503 with Retry-After and a JSON error saying so, never a 500: the
// routes' own error handlers answer 500, and this middleware, outside them, turns the answer of
// a request that failed for want of the database into the 503. And the health checks: liveness
// (the process answers) apart from readiness (the database answers too).

const DETAIL = 'The database is unavailable right now; retry after the number of seconds in Retry-After';

/** Answers 503 + Retry-After for a request whose error was the database being unreachable. */
export function databaseOutage(health: DatabaseHealth): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status < 500 || !isDatabaseUnavailable(c.error)) return;
    const retryAfter = { 'Retry-After': String(health.retryAfterSeconds) };
    // The auth API answers in GoTrue's error shape, the rest in `{ detail }` (as the input guard does).
    c.res = c.req.path.startsWith('/auth/')
      ? c.json({ code: 503, error_code: 'database_unavailable', msg: DETAIL, message: DETAIL }, 503, {
          ...retryAfter,
          [API_VERSION_HEADER]: API_VERSION,
        })
      : c.json({ detail: DETAIL, code: 'database_unavailable' }, 503, retryAfter);
  };
}

/** How long readiness waits for `select 1` before calling the database unreachable. */
const READY_TIMEOUT_MS = 2_000;

/** /health (kept: the process answers), /health/live (the same) and /health/ready (and its database). */
export function healthRoutes(database: DatabaseHandle): Hono {
  const app = new Hono();
  const live = () => ({ status: 'ok' });
  app.get('/', (c) => c.json(live()));
  app.get('/live', (c) => c.json(live()));
  app.get('/ready', async (c) => {
    const { health } = database;
    const ready = health.available && (await database.ping(READY_TIMEOUT_MS));
    if (ready) return c.json({ status: 'ok', database: 'ok' });
    return c.json({ status: 'unavailable', database: 'unreachable', detail: DETAIL }, 503, {
      'Retry-After': String(health.retryAfterSeconds),
      'Cache-Control': 'no-store',
    });
  });
  return app;
}
