import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../db/connect';
import { RuntimeError, type RunContext } from '../runtimes/runtime';
import type { JobsConfig } from './config';
import type { JobRow } from './envelope';
import { sleep, type JobEvents } from './events';
import { FileInputError, type FileStore } from './files';
import { finishJob, type Outcome } from './finish';
import { claimNext, expireOutputs, recoverAbandoned, renewLease, saveProgress } from './queue';
import type { LoadRunnable, RuntimeRegistry } from '../runtimes/registry';
import { deliverDueWebhooks, type WebhookDeps } from './webhooks';

// One process's share of the queue: up to `workerSlots` jobs at once. It claims when notified
// (pg_notify) and on a polling timer, renews each job's lease while it runs, stops a job on
// cancel or at its time limit, and ends it through finishJob (status + ledger in one transaction).

/** Progress and streamed text are written at most this often per job. */
const FLUSH_MS = 100;
/** Housekeeping (lease recovery, expired outputs, webhooks) runs at most this often. */
const HOUSEKEEPING_MS = 1000;

export interface WorkerDeps {
  database: DatabaseHandle;
  config: JobsConfig;
  events: JobEvents;
  runtimes: RuntimeRegistry;
  /** Reads the service to run (publishing owns the table). */
  loadRunnable: LoadRunnable;
  files: FileStore;
  webhooks: WebhookDeps;
}

type StopReason = 'cancel' | 'timeout' | 'shutdown';

interface Running {
  controller: AbortController;
  reason?: StopReason;
  done: Promise<void>;
}

export class JobWorker {
  readonly id = `worker-${randomUUID()}`;
  readonly #running = new Map<string, Running>();
  readonly #stop = new AbortController();
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #lastHousekeeping = 0;
  #unsubscribe: Array<() => void> = [];

  constructor(private readonly deps: WorkerDeps) {}

  get runningJobs(): number {
    return this.#running.size;
  }

  async start(): Promise<void> {
    const { events } = this.deps;
    this.#unsubscribe.push(
      events.onQueued(() => this.#wake?.()),
      events.onCancel((jobId) => this.#abort(jobId, 'cancel')),
    );
    // PGlite's directory belongs to this process alone: whatever was PROCESSING was ours.
    const { database, config } = this.deps;
    await recoverAbandoned(database.db, events, config.retentionHours, database.kind === 'pglite');
    this.#loop = this.#run();
  }

  /** Stops claiming; running jobs are aborted and left for recovery (they are retried once). */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    for (const running of this.#running.values()) {
      running.reason = 'shutdown';
      running.controller.abort(new Error('The server is shutting down'));
    }
    await this.#loop;
    await Promise.all([...this.#running.values()].map((r) => r.done));
  }

  #abort(jobId: string, reason: StopReason): void {
    const running = this.#running.get(jobId);
    if (!running || running.reason) return;
    running.reason = reason;
    running.controller.abort(new Error(reason === 'cancel' ? 'Cancelled by its owner' : 'Time limit reached'));
  }

  async #run(): Promise<void> {
    const { database, config, events } = this.deps;
    while (!this.#stop.signal.aborted) {
      try {
        if (Date.now() - this.#lastHousekeeping >= HOUSEKEEPING_MS) {
          this.#lastHousekeeping = Date.now();
          await recoverAbandoned(database.db, events, config.retentionHours, false);
          await expireOutputs(database.db);
          await this.deps.files.expire();
          await deliverDueWebhooks(this.deps.webhooks);
        }
        while (this.#running.size < config.workerSlots && !this.#stop.signal.aborted) {
          const job = await claimNext(database.db, events, this.id, config.leaseSeconds);
          if (!job) break;
          this.#start(job);
        }
      } catch (error) {
        if (this.#stop.signal.aborted) break;
        console.error('job worker:', (error as Error).message);
      }
      const pause = sleep(Math.min(config.pollMs, HOUSEKEEPING_MS), this.#stop.signal);
      this.#wake = pause.wake;
      await pause.promise;
    }
  }

  #start(job: JobRow): void {
    const controller = new AbortController();
    const entry: Running = { controller, done: Promise.resolve() };
    this.#running.set(job.id, entry);
    entry.done = this.#execute(job, entry)
      .catch((error) => console.error(`job ${job.id}:`, (error as Error).message))
      .finally(() => {
        this.#running.delete(job.id);
        this.#wake?.();
      });
  }

  async #execute(job: JobRow, entry: Running): Promise<void> {
    const { database, config, events, files } = this.deps;
    const { db } = database;
    const service = await this.deps.loadRunnable(job.service_id);
    const endpoint = service?.endpoints?.find((e) => e.path === job.endpoint);
    const runtime = service && endpoint ? this.deps.runtimes.runtimeFor(service) : undefined;
    if (!service || !endpoint || !runtime) {
      await this.#finish(job, {
        status: 'FAILED',
        error: { code: 'no_runtime', message: `No runtime can run ${job.service_id} ${job.endpoint} on this server any more` },
      });
      return;
    }

    const { controller } = entry;
    const timeLimit = setTimeout(() => this.#abort(job.id, 'timeout'), job.time_limit_s * 1000);
    const heartbeat = setInterval(
      () => {
        renewLease(db, job.id, this.id, config.leaseSeconds)
          .then((lease) => {
            if (!lease) controller.abort(new Error('Lease lost'));
            else if (lease.cancelRequested) this.#abort(job.id, 'cancel');
          })
          .catch(() => {});
      },
      Math.max(500, (config.leaseSeconds * 1000) / 3),
    );

    // Progress and text are coalesced: at most one write per FLUSH_MS, always one before the end.
    const state = { progress: 0, message: null as string | null, text: null as string | null, dirty: false };
    let flushTimer: NodeJS.Timeout | undefined;
    let flushing: Promise<void> = Promise.resolve();
    const flush = () => {
      flushTimer = undefined;
      if (!state.dirty) return flushing;
      state.dirty = false;
      const snapshot = { progress: state.progress, message: state.message, text: state.text };
      flushing = flushing.then(() => saveProgress(db, events, job.id, this.id, snapshot)).catch(() => {});
      return flushing;
    };
    const changed = () => {
      state.dirty = true;
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };

    const ctx: RunContext = {
      jobId: job.id,
      serviceId: job.service_id,
      endpoint,
      signal: controller.signal,
      progress(fraction, message) {
        state.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
        if (message !== undefined) state.message = message;
        changed();
      },
      partialText(delta) {
        state.text = (state.text ?? '') + delta;
        changed();
      },
      storeMedia: (bytes, contentType) =>
        files.put(bytes, contentType, {
          userId: job.user_id,
          jobId: job.id,
          expiresAt: new Date(Date.now() + (config.retentionHours * 3600 + job.time_limit_s) * 1000),
        }),
      readFile: (value) => files.read(value),
    };

    let outcome: Outcome;
    try {
      // A runtime that ignores its signal must not hold the job: the abort ends the wait.
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
      );
      const result = await Promise.race([runtime.run(job.input, ctx), aborted]);
      outcome = controller.signal.aborted ? this.#stopped(job, entry) : { status: 'FINISHED', result, message: state.message };
    } catch (error) {
      if (controller.signal.aborted) outcome = this.#stopped(job, entry);
      else if (error instanceof RuntimeError) outcome = { status: 'FAILED', error: { code: error.code, message: error.message } };
      else if (error instanceof FileInputError) outcome = { status: 'FAILED', error: { code: 'file_input', message: error.message } };
      else {
        console.error(`job ${job.id} runtime ${runtime.name} failed:`, error);
        outcome = {
          status: 'FAILED',
          error: { code: 'runtime_error', message: `The runtime failed: ${(error as Error)?.message ?? String(error)}` },
        };
      }
    } finally {
      clearTimeout(timeLimit);
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
    }
    await flushing;
    if (entry.reason === 'shutdown') return; // left PROCESSING: recovery retries it after restart
    if (outcome.status !== 'FINISHED' && state.text !== null && outcome.result === undefined) outcome.result = { text: state.text };
    await this.#finish(job, outcome);
  }

  #stopped(job: JobRow, entry: Running): Outcome {
    if (entry.reason === 'timeout') {
      return {
        status: 'TIMEOUT',
        error: { code: 'timeout', message: `The run took longer than the endpoint's time limit of ${job.time_limit_s} s` },
      };
    }
    if (entry.reason === 'cancel') return { status: 'CANCELLED', error: null, message: 'Cancelled by its owner' };
    return { status: 'FAILED', error: { code: 'stopped', message: 'The run was stopped' } };
  }

  #finish(job: JobRow, outcome: Outcome) {
    const { database, events, config } = this.deps;
    return finishJob(database.db, events, job, this.id, outcome, config.retentionHours);
  }
}
