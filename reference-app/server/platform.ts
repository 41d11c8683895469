import { hkdfSync } from 'node:crypto';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApp } from './app';
import { createProfile } from './profile/details';
import { SigningKeys } from './auth/keys';
import type { ServerConfig } from './config';
import { createSecretBox, loadSecretKey } from './crypto/secretBox';
import { randomToken } from './crypto/tokens';
import { openDatabase, type DatabaseHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import type { Db } from './db/types';
import { RateLimiter } from './http/rateLimit';
import { createMailboxMailer, createSmtpMailer } from './mail/mailer';
import { createSandboxProvider } from './payments/sandbox';
import { PaymentService } from './payments/service';
import { createStripeProvider } from './payments/stripe';
import { seedDatabase } from './seed';

// Builds the platform from its configuration: database (migrated, seeded once), keys, mailer,
// payment provider and the Hono app. No socket here; see server.ts.

export interface Platform {
  app: Hono;
  config: ServerConfig;
  publishableKey: string;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export interface PlatformOptions {
  config: ServerConfig;
  /** Serve dist/app (false with --dev, where Vite serves it). */
  serveApp?: boolean;
  relaxedDurability?: boolean;
  /** Publishable key to use instead of the stored or generated one. */
  publishableKey?: string;
}

/** PGlite's directory inside DATA_DIR (which also keeps secret.key). */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

async function ensurePublishableKey(db: Db, preferred: string | undefined): Promise<string> {
  if (preferred) return preferred;
  const candidate = `pk_lime_${randomToken(24)}`;
  await db
    .insertInto('settings')
    .values({ key: 'publishable_key', value: candidate })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'publishable_key').executeTakeFirstOrThrow();
  return row.value;
}

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { config } = options;
  const database = await openDatabase({
    dataDir: config.databaseUrl ? undefined : pgliteDir(config.dataDir),
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    relaxedDurability: options.relaxedDurability,
  });
  try {
    const { db } = database;
    await migrateToLatest(db, config.databaseUrl ? (config.databaseSchema ?? 'public') : 'public');
    const secretKey = loadSecretKey(config.secretKey, config.dataDir);
    const box = createSecretBox(secretKey);
    await seedDatabase(db, box);
    const keys = await SigningKeys.open(db, box);
    const publishableKey = await ensurePublishableKey(db, options.publishableKey);
    const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createMailboxMailer(db);
    const limiter = new RateLimiter(config.rateLimits.windowSeconds);
    const provider =
      config.payments.provider === 'stripe'
        ? createStripeProvider({
            secretKey: config.payments.stripeSecretKey!,
            webhookSecret: config.payments.stripeWebhookSecret,
            apiBase: config.payments.stripeApiBase,
          })
        : createSandboxProvider(config.publicUrl);
    const payments = new PaymentService(db, provider, config);
    const linkKey = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'limelight link signing', 32));

    const app = createApp({
      auth: { db, config, keys, box, mailer, limiter, onUserCreated: createProfile },
      api: {
        db,
        config,
        keys,
        box,
        mailer,
        limiter,
        payments,
        linkKey,
        services: {
          // Publishers' services on private addresses are allowed outside production, so a
          // service on this machine can be published (docs/security.md: service URLs).
          urlPolicy: { allowPrivateAddresses: process.env.NODE_ENV !== 'production' || process.env.ALLOW_PRIVATE_SERVICE_URLS === 'true' },
          storeImage: async () => {
            throw new Error('INTEGRATION: wire the media store');
          },
        },
      },
      publishableKey,
      serveApp: options.serveApp ?? true,
    });
    return {
      app,
      config,
      publishableKey,
      database,
      async close() {
        await mailer.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
