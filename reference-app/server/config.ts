import { DEFAULT_STORAGE_QUOTAS, type StorageQuotas } from './media/storageQuota';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { loadJobsConfig, type JobsConfig } from './jobs/config';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './log';
import { loadRuntimesConfig, type RuntimesConfig } from './runtimes/config';

/**
 * Everything the server reads from its environment, parsed and checked once at start. A bad
 * value stops the server with a message naming the variable instead of failing later.
 */

export const OAUTH_PROVIDERS = ['google', 'azure', 'github', 'facebook'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
  /** Endpoint overrides, for self-hosted providers and for tests with a stand-in provider. */
  authorizeUrl?: string;
  tokenUrl?: string;
  userinfoUrl?: string;
}

/** Per client IP (per account for `signInAccount`) and per window; `0` turns a limit off. */
export interface RateLimits {
  windowSeconds: number;
  signIn: number;
  /** Failed password sign-ins per account (e-mail address) per window. */
  signInAccount: number;
  signUp: number;
  emailSent: number;
  tokenRefresh: number;
  verify: number;
  mfa: number;
  support: number;
  /** Per user and window: POST /v1/jobs, POST /v1/files, OpenAPI imports, health checks. */
  jobs: number;
  files: number;
  imports: number;
  healthChecks: number;
}

export interface ServerConfig {
  /** Bytes of stored files a user may keep at once, by plan (STORAGE_QUOTA_<PLAN>_MB). */
  storageQuotas: StorageQuotas;
  /** Job streams one user may keep open on one server process (MAX_JOB_STREAMS_PER_USER; 0: no cap). */
  streamsPerUser: number;
  /** NODE_ENV=production: no dev mailbox, no demo accounts, explicit payment provider and secret key. */
  production: boolean;
  port: number;
  host: string | undefined;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Postgres schema for every table (real PostgreSQL only); tests use one per server. */
  databaseSchema: string | undefined;
  /** Send the job path's hot statements as named prepared statements (db/prepared.ts). */
  databasePreparedStatements: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  brandName: string;
  /** `'*'` allows every origin. */
  corsOrigins: string[] | '*';
  /** Origins allowed as redirect targets besides PUBLIC_URL's (CORS origins are included). */
  redirectOrigins: string[];
  jwtExpirySeconds: number;
  refreshTokenReuseIntervalSeconds: number;
  mailerAutoconfirm: boolean;
  disableSignup: boolean;
  passwordMinLength: number;
  /** Minimum seconds between two mails of one kind to one address; 0 turns the check off. */
  emailMinIntervalSeconds: number;
  confirmationTtlSeconds: number;
  recoveryTtlSeconds: number;
  magicLinkTtlSeconds: number;
  rateLimits: RateLimits;
  /** Where rate-limit counters live: the database (shared by every process) or this process's memory. */
  rateLimitStore: 'database' | 'memory';
  /** Proxies in front of the server whose X-Forwarded-For entries are trusted; 0 trusts none. */
  trustProxy: number;
  /** Bearer token that may read /metrics from anywhere (METRICS_TOKEN); without it, loopback only. */
  metricsToken: string | undefined;
  /** 32-byte key (base64 or hex) for secrets at rest; else kept in DATA_DIR/secret.key. */
  secretKey: string | undefined;
  oauth: Partial<Record<OAuthProviderName, OAuthClientConfig>>;
  payments: {
    provider: 'sandbox' | 'stripe';
    currency: string;
    /** Price of one credit in the currency's minor unit. */
    creditPriceMinor: number;
    stripeSecretKey?: string;
    stripeWebhookSecret?: string;
    stripeApiBase: string;
  };
  /** Built reference app (index.html + assets); served with SPA fallback. */
  appDir: string;
  /** Whether the dev mailbox keeps mail (true unless SMTP_URL is set). */
  devMailbox: boolean;
  logRequests: boolean;
  /** LOG_LEVEL: the least severe level written (default info). */
  logLevel: LogLevel;
  /** LOG_FORMAT: `json` lines (default in production) or `pretty` lines (default elsewhere). */
  logFormat: LogFormat;
  /** WORKERS: server processes on one port (`auto`: one per available CPU). */
  workers: number;
  /** Job queue, files and webhooks (jobs/config.ts). */
  jobs: JobsConfig;
  /** Local demo pacing and the service URL policy (runtimes/config.ts). */
  runtimes: RuntimesConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(env[name])}`);
}

/** TRUST_PROXY: false/0 (default), true (one proxy) or the number of proxies in front. */
function proxyHops(env: Env): number {
  const raw = env.TRUST_PROXY?.trim().toLowerCase();
  if (!raw) return 0;
  if (/^\d+$/.test(raw) && Number(raw) <= 16) return Number(raw);
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  if (['false', 'no', 'off'].includes(raw)) return 0;
  throw new ConfigError(`TRUST_PROXY must be false, true or the number of proxies in front (0-16), got ${JSON.stringify(env.TRUST_PROXY)}`);
}

/**
 * NODE_ENV=production refuses settings that are only safe on a developer's machine: every
 * mail readable at /dev/mailbox, a secret key kept beside the data, payments that always succeed.
 */
function checkProduction(env: Env, smtpUrl: string | undefined, paymentProviderSet: boolean): void {
  if (!smtpUrl) {
    throw new ConfigError(
      'SMTP_URL is required with NODE_ENV=production: without it mail goes to the dev mailbox, where anyone could read password-reset links',
    );
  }
  if (!env.LIMELIGHT_SECRET_KEY?.trim()) {
    throw new ConfigError('LIMELIGHT_SECRET_KEY is required with NODE_ENV=production (32 bytes, hex or base64): it seals secrets at rest');
  }
  if (!paymentProviderSet) {
    throw new ConfigError(
      'PAYMENT_PROVIDER is required with NODE_ENV=production: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY, or PAYMENT_PROVIDER=sandbox to accept fake payments on purpose',
    );
  }
}

function origin(value: string, name: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return url.origin;
  } catch {
    throw new ConfigError(`${name} must list http(s) URLs, got ${JSON.stringify(value)}`);
  }
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function oauthConfig(env: Env): ServerConfig['oauth'] {
  const out: ServerConfig['oauth'] = {};
  for (const provider of OAUTH_PROVIDERS) {
    const key = provider.toUpperCase();
    const clientId = env[`OAUTH_${key}_CLIENT_ID`];
    const clientSecret = env[`OAUTH_${key}_CLIENT_SECRET`];
    if (!clientId) continue;
    if (!clientSecret) throw new ConfigError(`OAUTH_${key}_CLIENT_SECRET is required when OAUTH_${key}_CLIENT_ID is set`);
    out[provider] = {
      clientId,
      clientSecret,
      authorizeUrl: env[`OAUTH_${key}_AUTHORIZE_URL`] || undefined,
      tokenUrl: env[`OAUTH_${key}_TOKEN_URL`] || undefined,
      userinfoUrl: env[`OAUTH_${key}_USERINFO_URL`] || undefined,
    };
  }
  return out;
}

/** WORKERS: a positive integer, or `auto` for one per available CPU. Default 1. */
export function workerCount(env: Env, cpus: number): number {
  const raw = env.WORKERS?.trim();
  if (!raw) return 1;
  if (raw === 'auto') return Math.max(1, cpus);
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ConfigError(`WORKERS must be a whole number of at least 1, or auto (got "${raw}")`);
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(env[name])}`);
  return raw as T;
}

/**
 * Reads the configuration; `cwd` anchors the relative defaults (DATA_DIR, the app directory).
 * The only reader of the environment: every other module gets what it needs from here.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd(), cpus = availableParallelism()): ServerConfig {
  const port = int(env, 'PORT', 3000);
  if (port > 65535) throw new ConfigError(`PORT must be at most 65535, got ${port}`);
  const publicUrl = (env.PUBLIC_URL ? origin(env.PUBLIC_URL, 'PUBLIC_URL') : `http://localhost:${port}`).replace(/\/+$/, '');
  const corsRaw = list(env, 'CORS_ORIGINS');
  const corsOrigins = corsRaw.includes('*') ? '*' : corsRaw.map((o) => origin(o, 'CORS_ORIGINS'));
  const production = env.NODE_ENV?.trim() === 'production';
  const paymentProviderSet = !!env.PAYMENT_PROVIDER?.trim() || !!env.STRIPE_SECRET_KEY?.trim();
  const paymentProvider = (env.PAYMENT_PROVIDER?.trim() || (env.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox')).trim();
  if (paymentProvider !== 'sandbox' && paymentProvider !== 'stripe') {
    throw new ConfigError(`PAYMENT_PROVIDER must be sandbox or stripe, got ${JSON.stringify(paymentProvider)}`);
  }
  if (paymentProvider === 'stripe' && !env.STRIPE_SECRET_KEY) {
    throw new ConfigError('STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER is stripe');
  }
  const schema = env.DATABASE_SCHEMA?.trim() || undefined;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new ConfigError(`DATABASE_SCHEMA must be a lower-case identifier, got ${JSON.stringify(schema)}`);
  }
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (production) checkProduction(env, smtpUrl, paymentProviderSet);
  const rateLimitStore = env.RATE_LIMIT_STORE?.trim() || 'database';
  if (rateLimitStore !== 'database' && rateLimitStore !== 'memory') {
    throw new ConfigError(`RATE_LIMIT_STORE must be database or memory, got ${JSON.stringify(rateLimitStore)}`);
  }
  return {
    production,
    port,
    // With the container runner on, every interface would include the bridges' gateways: a
    // publisher's container could call the platform's API (docs/security.md, "Container hosting").
    host: env.HOST?.trim() || (env.CONTAINER_RUNNER?.trim() ? '127.0.0.1' : undefined),
    publicUrl,
    dataDir: path.resolve(cwd, env.DATA_DIR?.trim() || '.data'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    databaseSchema: schema,
    databasePreparedStatements: bool(env, 'DATABASE_PREPARED_STATEMENTS', true),
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || `${env.BRAND_NAME?.trim() || 'Limelight'} <no-reply@limelight.dev>`,
    supportEmail: env.SUPPORT_EMAIL?.trim() || 'support@limelight.dev',
    brandName: env.BRAND_NAME?.trim() || 'Limelight',
    corsOrigins,
    redirectOrigins: list(env, 'REDIRECT_ORIGINS').map((o) => origin(o, 'REDIRECT_ORIGINS')),
    jwtExpirySeconds: int(env, 'JWT_EXPIRY', 3600, 30),
    refreshTokenReuseIntervalSeconds: int(env, 'REFRESH_TOKEN_REUSE_INTERVAL', 10),
    mailerAutoconfirm: bool(env, 'MAILER_AUTOCONFIRM', false),
    disableSignup: bool(env, 'DISABLE_SIGNUP', false),
    passwordMinLength: int(env, 'PASSWORD_MIN_LENGTH', 6, 1),
    emailMinIntervalSeconds: int(env, 'EMAIL_MIN_INTERVAL', 60),
    confirmationTtlSeconds: int(env, 'CONFIRMATION_TTL', 86_400, 1),
    recoveryTtlSeconds: int(env, 'RECOVERY_TTL', 3_600, 1),
    magicLinkTtlSeconds: int(env, 'MAGIC_LINK_TTL', 3_600, 1),
    rateLimits: {
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW', 300, 1),
      signIn: int(env, 'RATE_LIMIT_SIGN_IN', 1000),
      signInAccount: int(env, 'RATE_LIMIT_SIGN_IN_ACCOUNT', 10),
      signUp: int(env, 'RATE_LIMIT_SIGN_UP', 500),
      emailSent: int(env, 'RATE_LIMIT_EMAIL_SENT', 500),
      tokenRefresh: int(env, 'RATE_LIMIT_TOKEN_REFRESH', 3000),
      verify: int(env, 'RATE_LIMIT_VERIFY', 1000),
      mfa: int(env, 'RATE_LIMIT_MFA', 500),
      support: int(env, 'RATE_LIMIT_SUPPORT', 10),
      jobs: int(env, 'RATE_LIMIT_JOBS', 3000),
      files: int(env, 'RATE_LIMIT_FILES', 1000),
      imports: int(env, 'RATE_LIMIT_IMPORTS', 100),
      healthChecks: int(env, 'RATE_LIMIT_HEALTH_CHECKS', 300),
    },
    rateLimitStore,
    streamsPerUser: int(env, 'MAX_JOB_STREAMS_PER_USER', 50),
    storageQuotas: {
      free: int(env, 'STORAGE_QUOTA_FREE_MB', DEFAULT_STORAGE_QUOTAS.free / 1048576) * 1048576,
      plus: int(env, 'STORAGE_QUOTA_PLUS_MB', DEFAULT_STORAGE_QUOTAS.plus / 1048576) * 1048576,
      pro: int(env, 'STORAGE_QUOTA_PRO_MB', DEFAULT_STORAGE_QUOTAS.pro / 1048576) * 1048576,
      enterprise: int(env, 'STORAGE_QUOTA_ENTERPRISE_MB', DEFAULT_STORAGE_QUOTAS.enterprise / 1048576) * 1048576,
    },
    trustProxy: proxyHops(env),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    secretKey: env.LIMELIGHT_SECRET_KEY?.trim() || undefined,
    oauth: oauthConfig(env),
    payments: {
      provider: paymentProvider,
      currency: (env.CREDIT_CURRENCY?.trim() || 'eur').toLowerCase(),
      creditPriceMinor: int(env, 'CREDIT_PRICE_MINOR', 1, 1),
      stripeSecretKey: env.STRIPE_SECRET_KEY?.trim() || undefined,
      stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
      stripeApiBase: (env.STRIPE_API_BASE?.trim() || 'https://api.stripe.com').replace(/\/+$/, ''),
    },
    appDir: path.resolve(cwd, env.APP_DIR?.trim() || 'dist/app'),
    devMailbox: !smtpUrl && !production,
    logRequests: bool(env, 'LOG_REQUESTS', false),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf<LogFormat>(env, 'LOG_FORMAT', ['json', 'pretty'], production ? 'json' : 'pretty'),
    workers: workerCount(env, cpus),
    jobs: loadJobsConfig(env),
    runtimes: loadRuntimesConfig(env, production),
  };
}
