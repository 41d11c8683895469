import type { DatabaseHandle } from '../db/connect';
import type { ServerConfig } from '../config';
import { JobEvents } from './events';
import type { MediaStore } from '../media/store';
import type { LoadRunnable, RuntimeRegistry } from '../runtimes/registry';
import { createFileStore, type FileStore } from './files';
import { JobService } from './service';
import { JobWorker } from './worker';

// The job feature, assembled: notifications, stored files, the API's service and this process's
// worker. platform.ts starts it after migrations and closes it before the database.

export interface Jobs {
  service: JobService;
  files: FileStore;
  worker: JobWorker;
  close(): Promise<void>;
}

export async function startJobs(options: {
  database: DatabaseHandle;
  config: ServerConfig;
  linkKey: Buffer;
  media: MediaStore;
  /** Which runtime runs each service (runtimes/registry.ts). */
  runtimes: RuntimeRegistry;
  /** Reads a service to run: jobs never read publishing's tables themselves. */
  loadRunnable: LoadRunnable;
  fetch?: typeof fetch;
}): Promise<Jobs> {
  const { database, config } = options;
  const events = new JobEvents(database.kind === 'postgres' ? (config.databaseSchema ?? 'public') : undefined);
  const files = createFileStore(database.db, options.media, config.publicUrl);
  const { runtimes, loadRunnable } = options;
  const service = new JobService({
    db: database.db,
    config: config.jobs,
    publicUrl: config.publicUrl,
    events,
    runtimes,
    loadRunnable,
    files,
  });
  const worker = new JobWorker({
    database,
    config: config.jobs,
    events,
    runtimes,
    loadRunnable,
    files,
    webhooks: {
      db: database.db,
      linkKey: options.linkKey,
      publicUrl: config.publicUrl,
      allowPrivate: config.jobs.webhookAllowPrivate,
      fetch: options.fetch,
    },
  });
  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await database.listen(events.channel, { notify: (payload) => events.dispatch(payload) });
  } catch (error) {
    // Polling still finds the work; notifications only make it prompt.
    console.error('job notifications unavailable, polling instead:', (error as Error).message);
  }
  if (config.jobs.workerSlots > 0) await worker.start();
  return {
    service,
    files,
    worker,
    async close() {
      await worker.stop();
      await unlisten?.().catch(() => {});
    },
  };
}
