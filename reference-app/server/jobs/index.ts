import type { DatabaseHandle } from '../db/connect';
import type { ServerConfig } from '../config';
import { JobEvents } from './events';
import type { MediaStore } from '../media/store';
import { localDemoRuntime } from '../runtimes/local';
import { createFileStore, type FileStore } from './files';
import type { LoadRunnable, RuntimeRegistry } from './runtimes';
import { JobService } from './service';
import { WebhookSender } from './webhooks';
import { JobWorker } from './worker';
import { selectRunnableService } from '../services/queries';

// The job feature, assembled: notifications, stored files, the API's service and this process's
// worker. platform.ts starts it after migrations and closes it before the database.

/** The embedded default: every service with endpoints runs on the local demo runtimes. */
const localDemoRuntimes: RuntimeRegistry = () => localDemoRuntime;

export interface Jobs {
  service: JobService;
  files: FileStore;
  worker: JobWorker;
  webhooks: WebhookSender;
  close(): Promise<void>;
}

export async function startJobs(options: {
  database: DatabaseHandle;
  config: ServerConfig;
  linkKey: Buffer;
  media: MediaStore;
  /** Default: the local demo runtimes for every service. */
  runtimes?: RuntimeRegistry;
  /** How a service to run is loaded; default: the publishing feature's rows. */
  loadRunnable?: LoadRunnable;
  fetch?: typeof fetch;
}): Promise<Jobs> {
  const { database, config } = options;
  const events = new JobEvents(database.kind === 'postgres' ? (config.databaseSchema ?? 'public') : undefined);
  const files = createFileStore(database.db, options.media, config.publicUrl);
  const runtimes = options.runtimes ?? localDemoRuntimes;
  const loadRunnable: LoadRunnable = options.loadRunnable ?? ((id) => selectRunnableService(database.db, id) as ReturnType<LoadRunnable>);
  const log = { error: (message: string, error?: unknown) => console.error(`${message}:`, error) };
  const service = new JobService({
    db: database.db,
    config: config.jobs,
    publicUrl: config.publicUrl,
    events,
    runtimes,
    loadRunnable,
    files,
    lockUser: database.kind === 'postgres',
  });
  const webhooks = new WebhookSender(
    {
      db: database.db,
      linkKey: options.linkKey,
      publicUrl: config.publicUrl,
      allowPrivate: config.jobs.webhookAllowPrivate,
      fetch: options.fetch,
    },
    config.jobs.webhookConcurrency,
    (error) => log.error('job webhooks', error),
  );
  const worker = new JobWorker({
    database,
    config: config.jobs,
    events,
    runtimes,
    loadRunnable,
    files,
    log,
    onFinished: (job) => {
      if (job.webhook_url) webhooks.poke();
    },
  });
  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await database.listen(events.channel, { notify: (payload) => events.dispatch(payload) });
  } catch (error) {
    // Polling still finds the work; notifications only make it prompt.
    console.error('job notifications unavailable, polling instead:', (error as Error).message);
  }
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
      await webhooks.stop();
      await worker.stop();
      await unlisten?.().catch(() => {});
    },
  };
}
