import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../reference-app/server/config';
import { bool, ConfigError, int, list, matching, oneOf, optionalInt, url } from '../../../../reference-app/server/config/env';

// The one set of environment parsers (reference-app/server/config/env.ts): a bad value is a
// ConfigError naming the variable, the value and what was expected; blank means the default.

/** The ConfigError `read` throws, so a test can check its variable and its whole message. */
function refusal(read: () => unknown): ConfigError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the value was accepted');
}

describe('int', () => {
  it('reads whole numbers in range, and the fallback when unset or blank', () => {
    expect(int({ N: '42' }, 'N', 7)).toBe(42);
    expect(int({ N: ' 3 ' }, 'N', 7, { min: 2 })).toBe(3);
    expect(int({}, 'N', 7)).toBe(7);
    expect(int({ N: '  ' }, 'N', 7)).toBe(7);
    expect(optionalInt({}, 'N')).toBeUndefined();
  });

  it.each([
    ['abc', {}, 'N must be a whole number ≥ 0, got "abc"'],
    ['-1', { min: 2, unit: 'seconds' }, 'N must be a whole number of seconds ≥ 2, got "-1"'],
    ['1.5', {}, 'N must be a whole number ≥ 0, got "1.5"'],
    ['1e3', {}, 'N must be a whole number ≥ 0, got "1e3"'],
    ['0x10', {}, 'N must be a whole number ≥ 0, got "0x10"'],
    ['70000', { max: 65535 }, 'N must be a whole number from 0 to 65535, got "70000"'],
    ['99999999999999999999', {}, 'N must be a whole number ≥ 0, got "99999999999999999999"'],
  ])('refuses %s naming the variable, the value and the range', (raw, rule, message) => {
    const error = refusal(() => int({ N: raw }, 'N', 1, rule));
    expect(error.message).toBe(message);
    expect(error.variable).toBe('N');
  });
});

describe('bool, oneOf, matching, url, list', () => {
  it('reads booleans in their usual spellings and refuses anything else', () => {
    expect(['1', 'true', 'YES', 'on'].map((raw) => bool({ B: raw }, 'B', false))).toEqual([true, true, true, true]);
    expect(['0', 'false', 'No', 'off'].map((raw) => bool({ B: raw }, 'B', true))).toEqual([false, false, false, false]);
    expect(bool({}, 'B', true)).toBe(true);
    expect(refusal(() => bool({ B: 'maybe' }, 'B', true)).message).toBe('B must be true or false, got "maybe"');
  });

  it('reads one of a set in any case and lists the set when refusing', () => {
    expect(oneOf({ E: 'Memory' }, 'E', ['database', 'memory'], 'database')).toBe('memory');
    expect(oneOf({}, 'E', ['database', 'memory'], 'database')).toBe('database');
    expect(refusal(() => oneOf({ E: 'disk' }, 'E', ['database', 'memory'], 'database')).message).toBe(
      'E must be one of database, memory, got "disk"',
    );
  });

  it('checks patterns and URL schemes, keeping the value as written', () => {
    expect(matching({ S: 'tenant_1' }, 'S', /^[a-z_0-9]+$/, 'a lower-case identifier')).toBe('tenant_1');
    expect(refusal(() => matching({ S: 'Bad-Name' }, 'S', /^[a-z_0-9]+$/, 'a lower-case identifier')).message).toBe(
      'S must be a lower-case identifier, got "Bad-Name"',
    );
    expect(url({ U: 'postgres://u:p@db/x' }, 'U', ['postgres:', 'postgresql:'])).toBe('postgres://u:p@db/x');
    expect(refusal(() => url({ U: 'notaurl' }, 'U', ['postgres:', 'postgresql:'])).message).toBe(
      'U must be a postgres or postgresql URL, got "notaurl"',
    );
    expect(refusal(() => url({ U: 'ftp://x' }, 'U', ['http:', 'https:'])).message).toBe('U must be a http or https URL, got "ftp://x"');
  });

  it('splits lists on commas and drops blanks', () => {
    expect(list({ L: ' a, ,b ' }, 'L')).toEqual(['a', 'b']);
    expect(list({}, 'L')).toEqual([]);
  });
});

describe('loadConfig through the shared parsers', () => {
  it.each([
    [{ WORKERS: 'abc' }, 'WORKERS', 'WORKERS must be a whole number ≥ 1, or auto, got "abc"'],
    [{ JOB_LEASE_SECONDS: '-1' }, 'JOB_LEASE_SECONDS', 'JOB_LEASE_SECONDS must be a whole number of seconds ≥ 2, got "-1"'],
    [{ PORT: '70000' }, 'PORT', 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ DATABASE_URL: 'notaurl' }, 'DATABASE_URL', 'DATABASE_URL must be a postgres or postgresql URL, got "notaurl"'],
    [{ SMTP_URL: 'garbage' }, 'SMTP_URL', 'SMTP_URL must be a smtp or smtps URL, got "garbage"'],
    [{ LIMELIGHT_SECRET_KEY: 'abc' }, 'LIMELIGHT_SECRET_KEY', 'LIMELIGHT_SECRET_KEY must be 32 bytes (64 hex digits or base64), got "abc"'],
    [{ CREDIT_CURRENCY: 'euro' }, 'CREDIT_CURRENCY', 'CREDIT_CURRENCY must be a three-letter currency code (ISO 4217), got "euro"'],
    [{ CORS_ORIGINS: 'https://a.example, nope' }, 'CORS_ORIGINS', 'CORS_ORIGINS must be a http or https URL, got "nope"'],
    [{ LOCAL_DEMO_STEP_MS: 'fast' }, 'LOCAL_DEMO_STEP_MS', 'LOCAL_DEMO_STEP_MS must be a whole number of milliseconds ≥ 0, got "fast"'],
    [
      { CONTAINER_RUNNER: 'docker', CONTAINER_PULL_TIMEOUT_S: '0' },
      'CONTAINER_PULL_TIMEOUT_S',
      'CONTAINER_PULL_TIMEOUT_S must be a whole number of seconds ≥ 1, got "0"',
    ],
    [
      { CONTAINER_RUNNER: 'docker', PLATFORM_REGISTRY: 'maybe' },
      'PLATFORM_REGISTRY',
      'PLATFORM_REGISTRY must be one of on, off, got "maybe"',
    ],
  ])('%o is refused naming %s', (env, variable, message) => {
    const error = refusal(() => loadConfig(env, '/srv', 2));
    expect(error.variable).toBe(variable);
    expect(error.message).toBe(message);
  });

  it('keeps the defaults of an empty environment', () => {
    const config = loadConfig({}, '/srv', 2);
    expect(config).toMatchObject({
      port: 3000,
      workers: 1,
      publicUrl: 'http://localhost:3000',
      corsOrigins: [],
      rateLimitStore: 'database',
    });
    expect(config.jobs.leaseSeconds).toBe(30);
    expect(config.payments.currency).toBe('eur');
    expect(config.runtimes.localDemoStepMs).toBe(150);
  });
});
