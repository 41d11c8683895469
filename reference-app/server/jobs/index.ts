import type { DatabaseHandle } from '../db/connect';
import type { CoreConfig } from '../config/core';
import { CATALOGUE_CHANNEL, CATALOGUE_COUNTS_PREFIX } from '../http/catalogueCache';
import type { RateLimiter } from '../http/rateLimit';
import type { JobObserver } from '../http/metrics';
import { log } from '../log';
import { exampleMediaDir } from '../media/exampleMedia';
import type { MediaStore } from '../media/store';
import type { LoadRunnable, RuntimeRegistry } from '../hosting/runtimeRegistry';
import { CreateLimit } from './createLimit';
import type { JobsConfig } from './config';
import { JobEvents } from './events';
import { createFileStore, type FileStore } from './files';
import { JobService } from './service';
import { WebhookSender } from './webhooks';
import { JobWorker } from './worker';

// The job feature, assembled: notifications, stored files, the API's service, this process's
// worker and its webhook sender. platform.ts starts it after migrations and closes it before the
// database.

// What tests outside test/unit may use besides (docs/testing.md, "Tests and the server's entries"):
// the notifications, a run's hold and shortest failed charge, the price a run is metered at, the
// webhook URL check.
export { JobEvents, jobEventsChannel } from './events';
export { MIN_FAILED_SECONDS } from './finish';
export { runPriceOf } from './pricing';
export { holdFor } from './service';
export { webhookUrlProblem } from './webhooks';

export interface Jobs {
  service: JobService;
  files: FileStore;
  worker: JobWorker;
  webhooks: WebhookSender;
  close(): Promise<void>;
}

export async function startJobs(options: {
  database: DatabaseHandle;
  /** The server's settings and the queue's own (jobs/config.ts). */
  config: CoreConfig & { jobs: JobsConfig };
  linkKey: Buffer;
  media: MediaStore;
  /** The server's rate limiter: the per-account limit of creates counts on it (createLimit.ts). */
  limiter: RateLimiter;
  /** Which runtime runs each service (hosting/runtimeRegistry.ts). */
  runtimes: RuntimeRegistry;
  /** Reads a service to run: jobs never read publishing's tables themselves. */
  loadRunnable: LoadRunnable;
  fetch?: typeof fetch;
  /** Pickup and run times for /metrics. */
  observer?: JobObserver;
}): Promise<Jobs> {
  const { database, config, runtimes, loadRunnable } = options;
  const events = new JobEvents(database.kind === 'postgres' ? (config.databaseSchema ?? 'public') : undefined);
  const files = createFileStore(database.db, options.media, config.publicUrl, exampleMediaDir(process.cwd(), config.appDir));
  const createLimit = new CreateLimit({
    limiter: options.limiter,
    limit: config.rateLimits.jobs,
    windowSeconds: config.rateLimits.windowSeconds,
    sharedStore: config.rateLimitStore === 'database',
  });
  const webhooks = new WebhookSender(
    {
      db: database.db,
      linkKey: options.linkKey,
      publicUrl: config.publicUrl,
      allowPrivate: config.jobs.webhookAllowPrivate,
      own: config.jobs.webhookOwn,
      fetch: options.fetch,
    },
    config.jobs.webhookConcurrency,
  );
  const worker = new JobWorker({
    database,
    config: config.jobs,
    events,
    runtimes,
    loadRunnable,
    files,
    publicUrl: config.publicUrl,
    observer: options.observer,
    onFinished: (job) => {
      if (job.webhook_url) webhooks.poke();
    },
  });
  const service = new JobService({
    createLimit,
    db: database.db,
    config: config.jobs,
    publicUrl: config.publicUrl,
    events,
    runtimes,
    loadRunnable,
    files,
    // Creates start jobs in this worker's free slots while the queue is empty (worker.ts, holdSlots).
    slots: worker,
  });
  let unlisten: (() => Promise<void>) | undefined;
  try {
    // Notifications sent while the listener was away are lost: once it is back the worker claims
    // at once instead of waiting for its poll (docs/deploy.md, "When the database goes away").
    unlisten = await database.listen(events.channel, {
      notify: (payload) => events.dispatch(payload),
      restored: () => events.resync(),
    });
  } catch (error) {
    // Polling still finds the work; notifications only make it prompt.
    log.warn({ err: error }, 'job notifications unavailable, polling instead');
  }
  // A service is reused for a second by the creates and claims that follow; a write to the
  // catalogue (a pause, an edit, a delete, through any process) drops those copies at once, so a
  // paused service refuses the very next run (migration 006 announces every such write).
  let unlistenCatalogue: (() => Promise<void>) | undefined;
  try {
    unlistenCatalogue = await database.listen(CATALOGUE_CHANNEL, {
      notify: (payload) => {
        // Run counts changed (migration 012): the services and prices held here did not.
        if (payload.startsWith(CATALOGUE_COUNTS_PREFIX)) return;
        service.forgetServices();
        worker.forgetServices();
      },
    });
  } catch (error) {
    log.warn(
      { err: error },
      'catalogue notifications unavailable: cached services are read again after a second, and used up to 5 s old meanwhile',
    );
  }
  const offRestored = database.health.onRestored(() => events.resync());
  if (config.jobs.workerSlots > 0) {
    await worker.start();
    webhooks.start();
  }
  return {
    service,
    files,
    worker,
    webhooks,
    async close() {
      offRestored();
      await webhooks.stop();
      await worker.stop();
      await unlisten?.().catch(() => {});
      await unlistenCatalogue?.().catch(() => {});
    },
  };
}
