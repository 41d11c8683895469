import type { Context } from 'hono';

// What a 500 leaves in the log: where (method and path, never the query), the error's class,
// its message with quoted values blanked and its stack frames. Never the error object itself:
// database errors carry the statement's parameters (password hashes, tokens, addresses).

/** The message without the values PostgreSQL and others quote in it ("…", '…'). */
export function redactMessage(message: string): string {
  return message.replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'");
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-error thrown: ${typeof error}`;
  const { code: rawCode } = error as { code?: unknown };
  const code = typeof rawCode === 'string' ? ` [${rawCode}]` : '';
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  const cause = error.cause ? `\ncaused by: ${describeError(error.cause)}` : '';
  return `${error.name}${code}: ${redactMessage(error.message)}${frames ? `\n${frames}` : ''}${cause}`;
}

/** Logs a request that failed with a 500. */
export function logRequestFailure(scope: string, c: Context, error: unknown): void {
  console.error(`${scope} ${c.req.method} ${c.req.path} failed: ${describeError(error)}`);
}
