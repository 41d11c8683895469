import type { Context } from 'hono';
import { errorForLog, log } from '../log';

// What a 500 leaves in the log: where (method and path, never the query), the error's class,
// its message with quoted values blanked and its stack frames (log.ts, errorForLog). Never the
// error object itself: database errors carry the statement's parameters (password hashes,
// tokens, addresses).

export { redactMessage } from '../log';

/** The error as one readable text, as the log keeps it. */
export function describeError(error: unknown): string {
  const describe = (e: ReturnType<typeof errorForLog>): string =>
    `${e.type}${e.code ? ` [${e.code}]` : ''}: ${e.message}${e.stack ? `\n${e.stack}` : ''}${e.cause ? `\ncaused by: ${describe(e.cause)}` : ''}`;
  return describe(errorForLog(error));
}

/** Logs a request that failed with a 500. */
export function logRequestFailure(scope: string, c: Context, error: unknown): void {
  log.error({ scope, method: c.req.method, path: c.req.path, err: error }, `${scope} ${c.req.method} ${c.req.path} failed`);
}
