import { DEFAULT_STORAGE_QUOTAS, type StorageQuotas } from './media/storageQuota';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { loadJobsConfig, type JobsConfig } from './jobs/config';
import { LOG_LEVELS, type LogFormat } from './log';
import { loadRuntimesConfig, type RuntimesConfig } from './hosting/config';
import { ownAddressOf } from './runtimes/http/urlPolicy';
import { bool, ConfigError, int, list, matching, oneOf, parseUrl, text, url, type Env } from './config/env';
import { secretKeyBytes } from './crypto/secretBox';
import { loadApiKeysConfig } from './config/apiKeys';
import { OAUTH_PROVIDERS, type CoreConfig } from './config/core';

/**
 * Everything the server reads from its environment, parsed and checked once at start. A bad
 * value stops the server with a message naming the variable instead of failing later.
 */

// The error a bad setting stops the server with; config.ts is config/'s entry for tests
// (docs/testing.md, "Tests and the server's entries").
export { ConfigError };

/** Everything the server reads: its own settings (config/core.ts) and each feature's. */
export interface ServerConfig extends CoreConfig {
  /** Bytes of stored files a user may keep at once, by plan (STORAGE_QUOTA_<PLAN>_MB). */
  storageQuotas: StorageQuotas;
  /** Job queue, files and webhooks (jobs/config.ts). */
  jobs: JobsConfig;
  /** Local demo pacing, the service URL policy and the container runner (hosting/config.ts). */
  runtimes: RuntimesConfig;
}

/** TRUST_PROXY: false/0 (default), true (one proxy) or the number of proxies in front. */
function proxyHops(env: Env): number {
  const raw = text(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined) return 0;
  if (/^\d+$/.test(raw) && Number(raw) <= 16) return Number(raw);
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  if (['false', 'no', 'off'].includes(raw)) return 0;
  throw ConfigError.invalid('TRUST_PROXY', env.TRUST_PROXY!.trim(), 'false, true or the number of proxies in front (0-16)');
}

/**
 * NODE_ENV=production refuses settings that are only safe on a developer's machine: every
 * mail readable at /dev/mailbox, a secret key kept beside the data, payments that always succeed.
 */
function checkProduction(env: Env, smtpUrl: string | undefined, paymentProviderSet: boolean): void {
  if (!smtpUrl) {
    throw ConfigError.required(
      'SMTP_URL',
      'with NODE_ENV=production: without it mail goes to the dev mailbox, where anyone could read password-reset links',
    );
  }
  if (!text(env, 'LIMELIGHT_SECRET_KEY')) {
    throw ConfigError.required('LIMELIGHT_SECRET_KEY', 'with NODE_ENV=production (32 bytes, hex or base64): it seals secrets at rest');
  }
  if (!paymentProviderSet) {
    throw ConfigError.required(
      'PAYMENT_PROVIDER',
      'with NODE_ENV=production: set PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY, or PAYMENT_PROVIDER=sandbox to accept fake payments on purpose',
    );
  }
}

const HTTP = ['http:', 'https:'];

/** A comma-separated list of http(s) origins. */
function origins(env: Env, name: string): string[] {
  return list(env, name).map((value) => parseUrl(name, value, HTTP).origin);
}

/** LIMELIGHT_SECRET_KEY checked here, so a bad key stops the start like any bad setting. */
function secretKey(env: Env): string | undefined {
  const raw = text(env, 'LIMELIGHT_SECRET_KEY');
  if (raw !== undefined && secretKeyBytes(raw) !== 32)
    throw ConfigError.invalid('LIMELIGHT_SECRET_KEY', raw, '32 bytes (64 hex digits or base64)');
  return raw;
}

function oauthConfig(env: Env): ServerConfig['oauth'] {
  const out: ServerConfig['oauth'] = {};
  for (const provider of OAUTH_PROVIDERS) {
    const key = provider.toUpperCase();
    const clientId = text(env, `OAUTH_${key}_CLIENT_ID`);
    const clientSecret = text(env, `OAUTH_${key}_CLIENT_SECRET`);
    if (!clientId) continue;
    if (!clientSecret) throw ConfigError.required(`OAUTH_${key}_CLIENT_SECRET`, `when OAUTH_${key}_CLIENT_ID is set`);
    out[provider] = {
      clientId,
      clientSecret,
      authorizeUrl: url(env, `OAUTH_${key}_AUTHORIZE_URL`, HTTP),
      tokenUrl: url(env, `OAUTH_${key}_TOKEN_URL`, HTTP),
      userinfoUrl: url(env, `OAUTH_${key}_USERINFO_URL`, HTTP),
    };
  }
  return out;
}

/** WORKERS: a positive integer, or `auto` for one per available CPU. Default 1. */
export function workerCount(env: Env, cpus: number): number {
  if (text(env, 'WORKERS') === 'auto') return Math.max(1, cpus);
  try {
    return int(env, 'WORKERS', 1, { min: 1 });
  } catch {
    throw ConfigError.invalid('WORKERS', text(env, 'WORKERS')!, 'a whole number ≥ 1, or auto');
  }
}

/** STORAGE_QUOTA_<PLAN>_MB, in bytes. */
function storageQuotas(env: Env): StorageQuotas {
  const mb = (plan: keyof StorageQuotas) => int(env, `STORAGE_QUOTA_${plan.toUpperCase()}_MB`, DEFAULT_STORAGE_QUOTAS[plan] / MB) * MB;
  return { free: mb('free'), plus: mb('plus'), pro: mb('pro'), enterprise: mb('enterprise') };
}

const MB = 1048576;

/**
 * Reads the configuration; `cwd` anchors the relative defaults (DATA_DIR, the app directory).
 * The only reader of the environment: every other module gets what it needs from here.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd(), cpus = availableParallelism()): ServerConfig {
  const port = int(env, 'PORT', 3000, { max: 65535 });
  const publicUrlSet = url(env, 'PUBLIC_URL', HTTP);
  const publicUrl = publicUrlSet ? new URL(publicUrlSet).origin : `http://localhost:${port}`;
  const corsOrigins = list(env, 'CORS_ORIGINS').includes('*') ? '*' : origins(env, 'CORS_ORIGINS');
  const production = text(env, 'NODE_ENV') === 'production';
  const stripeSecretKey = text(env, 'STRIPE_SECRET_KEY');
  const paymentProviderSet = !!text(env, 'PAYMENT_PROVIDER') || !!stripeSecretKey;
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['sandbox', 'stripe'], stripeSecretKey ? 'stripe' : 'sandbox');
  if (paymentProvider === 'stripe' && !stripeSecretKey) throw ConfigError.required('STRIPE_SECRET_KEY', 'when PAYMENT_PROVIDER is stripe');
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (production) checkProduction(env, smtpUrl, paymentProviderSet);
  const brandName = text(env, 'BRAND_NAME') ?? 'Limelight';
  const runtimes = loadRuntimesConfig(env, production);
  return {
    production,
    port,
    // With the container runner on, every interface would include the bridges' gateways: a
    // publisher's container could call the platform's API (docs/security.md, "Container hosting").
    host: text(env, 'HOST') ?? (text(env, 'CONTAINER_RUNNER') ? '127.0.0.1' : undefined),
    publicUrl,
    dataDir: path.resolve(cwd, text(env, 'DATA_DIR') ?? '.data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databaseSchema: matching(env, 'DATABASE_SCHEMA', /^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case identifier'),
    databasePreparedStatements: bool(env, 'DATABASE_PREPARED_STATEMENTS', true),
    smtpUrl,
    mailFrom: text(env, 'MAIL_FROM') ?? `${brandName} <no-reply@limelight.dev>`,
    supportEmail: text(env, 'SUPPORT_EMAIL') ?? 'support@limelight.dev',
    brandName,
    corsOrigins,
    redirectOrigins: origins(env, 'REDIRECT_ORIGINS'),
    jwtExpirySeconds: int(env, 'JWT_EXPIRY', 3600, { min: 30, unit: 'seconds' }),
    refreshTokenReuseIntervalSeconds: int(env, 'REFRESH_TOKEN_REUSE_INTERVAL', 10, { unit: 'seconds' }),
    mailerAutoconfirm: bool(env, 'MAILER_AUTOCONFIRM', false),
    disableSignup: bool(env, 'DISABLE_SIGNUP', false),
    passwordMinLength: int(env, 'PASSWORD_MIN_LENGTH', 6, { min: 1 }),
    emailMinIntervalSeconds: int(env, 'EMAIL_MIN_INTERVAL', 60, { unit: 'seconds' }),
    confirmationTtlSeconds: int(env, 'CONFIRMATION_TTL', 86_400, { min: 1, unit: 'seconds' }),
    recoveryTtlSeconds: int(env, 'RECOVERY_TTL', 3_600, { min: 1, unit: 'seconds' }),
    magicLinkTtlSeconds: int(env, 'MAGIC_LINK_TTL', 3_600, { min: 1, unit: 'seconds' }),
    rateLimits: {
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW', 300, { min: 1, unit: 'seconds' }),
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
    rateLimitStore: oneOf(env, 'RATE_LIMIT_STORE', ['database', 'memory'], 'database'),
    streamsPerUser: int(env, 'MAX_JOB_STREAMS_PER_USER', 50),
    streamsTotal: int(env, 'MAX_JOB_STREAMS', 2000),
    storageQuotas: storageQuotas(env),
    trustProxy: proxyHops(env),
    metricsToken: text(env, 'METRICS_TOKEN'),
    secretKey: secretKey(env),
    apiKeys: loadApiKeysConfig(env, production),
    oauth: oauthConfig(env),
    payments: {
      provider: paymentProvider,
      currency: matching(env, 'CREDIT_CURRENCY', /^[a-z]{3}$/i, 'a three-letter currency code (ISO 4217)')?.toLowerCase() ?? 'eur',
      creditPriceMinor: int(env, 'CREDIT_PRICE_MINOR', 1, { min: 1 }),
      stripeSecretKey,
      stripeWebhookSecret: text(env, 'STRIPE_WEBHOOK_SECRET'),
      stripeApiBase: (url(env, 'STRIPE_API_BASE', HTTP) ?? 'https://api.stripe.com').replace(/\/+$/, ''),
    },
    appDir: path.resolve(cwd, text(env, 'APP_DIR') ?? 'dist/app'),
    devMailbox: !smtpUrl && !production,
    logRequests: bool(env, 'LOG_REQUESTS', false),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: oneOf<LogFormat>(env, 'LOG_FORMAT', ['json', 'pretty'], production ? 'json' : 'pretty'),
    workers: workerCount(env, cpus),
    jobs: { ...loadJobsConfig(env), webhookOwn: ownAddressOf(publicUrl, port, runtimes.containers?.dockerHost) },
    runtimes,
  };
}
