import { sessionStateLookup } from './api/sessionState';
import { ownAddressOf } from './runtimes/http/urlPolicy';
import { hkdfSync } from 'node:crypto';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApp } from './app';
import { createProfile } from './profile/details';
import { issuerOf } from './auth/deps';
import { SigningKeys } from './auth/keys';
import { resolveApiKeys, writeKeysFile, type ApiKeys } from './auth/apiKeys';
import type { ServerConfig } from './config';
import { createSecretBox, loadSecretKey } from './crypto/secretBox';
import { openDatabase, type DatabaseHandle } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { CatalogueCache } from './http/catalogueCache';
import { createMetrics } from './http/metrics';
import { RateLimiter } from './http/rateLimit';
import { startJobs, type Jobs } from './jobs';
import { log } from './log';
import { jobEventsChannel } from './jobs/events';
import { insertLogWebhooks, setJobColdStart } from './jobs/queries';
import { chooseHosting } from './hosting/containerHosting';
import { startPlatformRegistry } from './registry/platformRegistry';
import { runnableServiceLoader } from './publishing/publishedServices';
import { importEndpoints } from './publishing/containerEndpoints';
import type { FleetAdapter } from './hosting/fleet';
import { createRuntimeRegistry, IO_RUNTIMES, type RuntimeChooser } from './hosting/runtimeRegistry';
import { createMailboxMailer, createSmtpMailer } from './mail/mailer';
import { createFileMediaStore } from './media/store';
import { createSandboxProvider } from './payments/sandbox';
import { PaymentService } from './payments/service';
import { createStripeProvider } from './payments/stripe';
import { seedDatabase } from './seed';
import { MailOutbox } from './support/mailOutbox';
import { removeDemoPasswords } from './seed/users';

// Builds the platform from its configuration: database (migrated, seeded once), keys, mailer,
// payment provider and the Hono app. No socket here; see server.ts.

export interface Platform {
  app: Hono;
  config: ServerConfig;
  publishableKey: string;
  /** Both auth keys and where they come from (auth/apiKeys.ts); never logged. */
  apiKeys: ApiKeys;
  database: DatabaseHandle;
  jobs: Jobs;
  close(): Promise<void>;
}

export interface PlatformOptions {
  config: ServerConfig;
  /** Serve dist/app (false with --dev, where Vite serves it). */
  serveApp?: boolean;
  relaxedDurability?: boolean;
  /** Publishable key to use instead of ANON_KEY or the stored one. */
  publishableKey?: string;
  /** Replaces the built-in runtimes of every service's jobs (tests inject theirs). */
  runtimes?: RuntimeChooser;
  /** Runs publishers' containers; default: none attached (deployments wait for a runner). */
  fleet?: FleetAdapter;
}

/** PGlite's directory inside DATA_DIR (which also keeps secret.key). */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { config } = options;
  const database = await openDatabase({
    dataDir: config.databaseUrl ? undefined : pgliteDir(config.dataDir),
    databaseUrl: config.databaseUrl,
    schema: config.databaseSchema,
    preparedStatements: config.databasePreparedStatements,
    relaxedDurability: options.relaxedDurability,
  });
  try {
    const { db } = database;
    await migrateToLatest(db, config.databaseUrl ? (config.databaseSchema ?? 'public') : 'public');
    const secretKey = loadSecretKey(config.secretKey, config.dataDir);
    const box = createSecretBox(secretKey);
    await seedDatabase(db, box, { demoAccounts: !config.production });
    if (config.production) {
      const removed = await removeDemoPasswords(db);
      if (removed.length)
        log.warn({ accounts: removed }, `NODE_ENV=production: removed the published demo passwords of ${removed.join(', ')}`);
    }
    const keys = await SigningKeys.open(db, box);
    // ANON_KEY and SERVICE_ROLE_KEY, else the stored keys; on PGlite also written to DATA_DIR
    // for `npm run keys`, which cannot open the database while this process holds it.
    const apiKeys = await resolveApiKeys(db, config, options.publishableKey);
    const publishableKey = apiKeys.publishable;
    if (!config.databaseUrl) writeKeysFile(config.dataDir, apiKeys);
    const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createMailboxMailer(db);
    const limiter = new RateLimiter({
      windowSeconds: config.rateLimits.windowSeconds,
      db: config.rateLimitStore === 'database' ? db : undefined,
    });
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
    const media = createFileMediaStore(path.join(config.dataDir, 'media'), config.publicUrl);
    const outbox = new MailOutbox(db, mailer);
    outbox.start();
    // Publishers' services on private addresses are allowed outside production, so a service on
    // this machine can be published (docs/security.md, "Service URLs").
    // The platform's own address is refused in every mode (the dev mailbox trusts this machine).
    // So is the container engine's TCP API when the runner drives one (docs/security.md).
    const urlPolicy = {
      allowPrivateAddresses: config.runtimes.allowPrivateServiceUrls,
      own: ownAddressOf(config.publicUrl, config.port, config.runtimes.containers?.dockerHost),
    };
    // With hosting on, the platform's own registry runs beside it (docs/publishing.md, "The
    // platform's registry"; PLATFORM_REGISTRY=off turns it off).
    const registry = config.runtimes.registry
      ? await startPlatformRegistry(db, config.runtimes.registry, { dataDir: config.dataDir, publicUrl: config.publicUrl })
      : undefined;
    // How this process hosts containers (CONTAINER_RUNNER, a database shared with runners, or a
    // test's fleet) is hosting's choice; the platform hands it what hosting must not import.
    const { fleet, runner: hosting } = chooseHosting(
      db,
      box,
      { fleet: options.fleet, runner: config.runtimes.containers, sharedDatabase: Boolean(config.databaseUrl) },
      {
        notifyChannel: jobEventsChannel(config.databaseUrl ? config.databaseSchema : undefined),
        platform: config.publicUrl,
        registry,
        imageRegistries: config.runtimes.imageRegistries,
        // Redirects of an image's /openapi.json follow the platform's URL policy.
        importEndpoints: (serviceId, baseUrl) => importEndpoints(db, serviceId, baseUrl, urlPolicy),
        jobColdStart: (jobId, coldStartMs, tier) => setJobColdStart(db, jobId, coldStartMs, tier),
        jobLogWebhooks: (jobIds) => insertLogWebhooks(db, jobIds),
      },
    );
    const runtimes = createRuntimeRegistry({ box, config: config.runtimes, own: urlPolicy.own, fleet, choose: options.runtimes });
    const loadRunnable = runnableServiceLoader(db, config.publicUrl);
    const metrics = createMetrics({ database, ioRuntimes: IO_RUNTIMES, metricsToken: config.metricsToken, trustProxy: config.trustProxy });
    const jobs = await startJobs({ database, config, linkKey, media, limiter, runtimes, loadRunnable, observer: metrics.jobs });

    // The same check as the API's: a valid signature and a session that still exists.
    const sessionState = sessionStateLookup(db);
    const catalogue = new CatalogueCache(async (token) => {
      try {
        const claims = await keys.verify(token, { issuer: issuerOf(config), audience: 'authenticated' });
        if (typeof claims.sub !== 'string' || typeof claims.session_id !== 'string') return undefined;
        return (await sessionState(claims.session_id, claims.sub)).live ? claims.sub : undefined;
      } catch {
        return undefined;
      }
    });
    await catalogue.listen(database);
    await hosting?.resume();

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
        media,
        outbox,
        jobs: jobs.service,
        jobFiles: jobs.files,
        registry,
        services: {
          urlPolicy,
          runtimes,
          storeImage: async (bytes, contentType) => (await media.put(bytes, contentType)).url,
        },
      },
      publishableKey,
      serveApp: options.serveApp ?? true,
      catalogue,
      database,
      metrics,
    });
    return {
      app,
      config,
      publishableKey,
      apiKeys,
      database,
      jobs,
      async close() {
        await jobs.close();
        // No container outlives the server that manages it.
        await hosting?.close();
        await registry?.close();
        await outbox.stop();
        await catalogue.close();
        await mailer.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
