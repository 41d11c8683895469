import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type DestinationStream, type Logger } from 'pino';

// The server's one logger (pino). Every module logs through `log`; nothing calls console.*.
//
// - Format: one JSON object per line in production (for a log collector), a short readable
//   line in development and tests. main.ts sets it from the configuration (LOG_FORMAT,
//   LOG_LEVEL); until then lines are readable, so a configuration error reads as a sentence.
// - Request id: every line written while a request is handled carries `req_id`, wherever in
//   the code it is written (the id lives in an AsyncLocalStorage set by http/requestContext.ts).
// - Secrets: fields that hold credentials are replaced by "[redacted]" however deep they sit
//   in what is logged (REDACTED_KEYS), and errors are logged by err (below), whose message has
//   quoted values blanked: database errors quote the statement's parameters.
//
// Log with fields first and the message last: `log.warn({ job: id, err }, 'job failed')`.
// Make children per use (`log.child({ scope: 'mail' })` inside a function), not at module load:
// a child keeps the level its parent had when it was made.

export type LogFormat = 'json' | 'pretty';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export type { Logger };

/** Field names whose values are never written, at any depth (compared in lower case). */
export const REDACTED_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'new_password',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'api_key',
  'apikey',
  'key',
  'secret',
  'client_secret',
  'secret_key',
  'webhook_secret',
  'headers_sealed',
  'code_verifier',
];
const REDACTED = '[redacted]';
const redactedKeys = new Set(REDACTED_KEYS);

/** A copy of `value` without the values of REDACTED_KEYS (cycles and depth cut short). */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (value instanceof Date || value instanceof Error) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactedKeys.has(k.toLowerCase()) ? REDACTED : redact(v, depth + 1);
  return out;
}

/** The message without the values PostgreSQL and others quote in it ("…", '…'). */
export function redactMessage(message: string): string {
  return message.replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'");
}

interface LoggedError {
  type: string;
  code?: string;
  message: string;
  stack?: string;
  cause?: LoggedError;
}

/** An error as the log keeps it: class, code, blanked message and stack frames; never its fields. */
export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: `non-error thrown: ${typeof error}` };
  const { code } = error as { code?: unknown };
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  return {
    type: error.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: redactMessage(error.message),
    ...(frames ? { stack: frames } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `work` as part of a request: every line logged inside carries `req_id`. */
export function withRequestId<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work);
}

/** The id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => requestScope.getStore()?.requestId;

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One JSON line as a developer reads it: `12:00:00.000 WARN [req] message key=value`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, time, msg, req_id, pid: _pid, err, ...rest } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const name = typeof level === 'number' ? (LEVEL_NAMES[level] ?? String(level)) : String(level).toUpperCase();
  const fields = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const error = err as LoggedError | undefined;
  const errorText = error
    ? `\n  ${error.type}${error.code ? ` [${error.code}]` : ''}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`
    : '';
  return `${clock} ${name.padEnd(5)} ${req_id ? `[${String(req_id)}] ` : ''}${String(msg ?? '')}${fields ? ` ${fields}` : ''}${errorText}\n`;
}

const settings: { format: LogFormat; write: (line: string) => void } = {
  format: 'pretty',
  write: (line) => process.stdout.write(line),
};

const destination: DestinationStream = {
  write(line: string) {
    settings.write(settings.format === 'json' ? line : prettyLine(line));
  },
};

export const log: Logger = pino(
  {
    level: 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { req_id: requestId } : {};
    },
    // Every logged object goes through redact(); errors through errorForLog().
    formatters: { log: (object) => redact(object) as Record<string, unknown> },
    serializers: { err: errorForLog, error: errorForLog },
  },
  destination,
);

export interface LoggerSettings {
  format?: LogFormat;
  level?: LogLevel;
  /** Where lines go (default stdout); tests capture them. */
  write?: (line: string) => void;
}

/** Sets the format, level and output of `log` and of children made from now on. */
export function configureLogger(options: LoggerSettings): void {
  if (options.format) settings.format = options.format;
  if (options.write) settings.write = options.write;
  if (options.level) log.level = options.level;
}
