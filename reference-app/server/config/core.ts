import type { LogFormat, LogLevel } from '../log';
import type { ApiKeysConfig } from './apiKeys';

// The server's own settings, those any module may read: addresses, mail, sign-in, rate limits,
// payments, logging. config.ts reads them (loadConfig) and adds each feature's own settings
// (ServerConfig: jobs/config.ts, hosting/config.ts, the storage quotas); this file imports
// nothing of a feature, so a module of any folder takes its settings from here without a loop
// through config.ts (docs/architecture.md, "Server layers").

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

/** What every module may read of the server's settings (ServerConfig, config.ts, is all of them). */
export interface CoreConfig {
  /** Job streams one user may keep open on one server process (MAX_JOB_STREAMS_PER_USER; 0: no cap). */
  streamsPerUser: number;
  /** Job streams all users together may keep open on one server process (MAX_JOB_STREAMS; 0: no cap). */
  streamsTotal: number;
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
  /** ANON_KEY and SERVICE_ROLE_KEY: the auth keys set by the operator, else the stored ones (auth/apiKeys.ts). */
  apiKeys: ApiKeysConfig;
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
}
