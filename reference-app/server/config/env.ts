// The one set of environment parsers. Every setting the server reads goes through these, so a bad
// value is refused the same way wherever it is read: a ConfigError naming the variable, the value
// it had and what it should be, which main.ts and runner.ts print as one line before exiting.

/** The environment as the loaders read it: `process.env`, or a plain object in tests. */
export type Env = Readonly<Record<string, string | undefined>>;

export class ConfigError extends Error {
  override name = 'ConfigError';

  private constructor(
    /** The environment variable at fault. */
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }

  /** `variable` holds `value`, which is not `expected` (a phrase: "a whole number ≥ 1"). */
  static invalid(variable: string, value: string, expected: string): ConfigError {
    return new ConfigError(variable, `${variable} must be ${expected}, got ${JSON.stringify(value)}`);
  }

  /** `variable` is unset but needed; `reason` says when and why ("with NODE_ENV=production: ..."). */
  static required(variable: string, reason: string): ConfigError {
    return new ConfigError(variable, `${variable} is required ${reason}`);
  }

  /** `variable` is refused for `message`, which names it; for secrets, whose value must not be quoted. */
  static refused(variable: string, message: string): ConfigError {
    return new ConfigError(variable, message);
  }
}

/** The trimmed value; undefined when unset or blank, so a blank variable means its default. */
export function text(env: Env, name: string): string | undefined {
  return env[name]?.trim() || undefined;
}

export interface IntRule {
  min?: number;
  max?: number;
  /** Said in the error: "a whole number of megabytes ≥ 16". */
  unit?: string;
}

function expectedInt({ min = 0, max, unit }: IntRule): string {
  const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
  return `a whole number${unit ? ` of ${unit}` : ''} ${range}`;
}

/** A whole number within the rule's range, or undefined when unset. */
export function optionalInt(env: Env, name: string, rule: IntRule = {}): number | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = rule;
  const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw ConfigError.invalid(name, raw, expectedInt(rule));
  return value;
}

/** A whole number within the rule's range, `fallback` when unset. */
export function int(env: Env, name: string, fallback: number, rule: IntRule = {}): number {
  return optionalInt(env, name, rule) ?? fallback;
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

/** true/false (also 1/0, yes/no, on/off, any case), `fallback` when unset. */
export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (TRUE.includes(raw.toLowerCase())) return true;
  if (FALSE.includes(raw.toLowerCase())) return false;
  throw ConfigError.invalid(name, raw, 'true or false');
}

/** One of `allowed` (compared in lower case), `fallback` when unset. */
export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const value = allowed.find((candidate) => candidate === raw.toLowerCase());
  if (value === undefined) throw ConfigError.invalid(name, raw, `one of ${allowed.join(', ')}`);
  return value;
}

/** A value matching `pattern`, undefined when unset; `expected` describes the pattern in words. */
export function matching(env: Env, name: string, pattern: RegExp, expected: string): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined && !pattern.test(raw)) throw ConfigError.invalid(name, raw, expected);
  return raw;
}

/** `value` parsed as a URL with one of `protocols` (e.g. `['http:', 'https:']`), else a ConfigError for `name`. */
export function parseUrl(name: string, value: string, protocols: readonly string[]): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Reported below, with what was expected.
  }
  if (!url || !protocols.includes(url.protocol)) {
    const schemes = protocols.map((p) => p.replace(/:$/, '')).join(' or ');
    throw ConfigError.invalid(name, value, `a ${schemes} URL`);
  }
  return url;
}

/** A URL with one of `protocols`, as written (trimmed); undefined when unset. */
export function url(env: Env, name: string, protocols: readonly string[]): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined) parseUrl(name, raw, protocols);
  return raw;
}

/** A comma-separated list, blanks dropped; empty when unset. */
export function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
