import { confineResult } from './largeResult';
import { randomUUID } from 'node:crypto';
import type { DatabaseHandle } from '../db/connect';
import { boundText, JsonText, MESSAGE_MAX_CHARS, RuntimeError, type RunContext, type SlotPool } from '../runtimes/runtime';
import type { JobsConfig } from './config';
import type { JobRow } from './envelope';
import { sleep, type JobEvents } from './events';
import { FileInputError, type FileStore } from './files';
import { CREDITS_PER_USD } from '@limelight/rules';
import { log } from '../log';
import { IO_RUNTIMES, slotPoolOf, type LoadRunnable, type RuntimeRegistry } from '../hosting/runtimeRegistry';
import { finishJobs, finishValues, hasNul, serialiseResult, withoutNul, type Outcome } from './finish';
import { GroupCommit } from '../db/groupCommit';
import { ServiceCache } from './serviceCache';
import { isDatabaseUnavailable } from '../db/errors';
import type { JobObserver } from '../http/metrics';
import { claimJobs } from './sql/claimJobs';
import { expireOutputs } from './sql/expireOutputs';
import type { EndedJob, FinishValues } from './sql/finishJobs';
import { recountJobUsers } from './sql/recountJobUsers';
import { recoverAbandoned } from './sql/recoverAbandoned';
import { renewLease } from './sql/renewLease';
import { saveProgress } from './sql/saveProgress';

// One process's share of the queue: up to `workerSlots` jobs of local runtimes and `ioSlots` jobs
// of I/O-bound runtimes (HTTP) at once, two pools so slow remote services never hold the local
// slots. It claims a batch per pool when notified (pg_notify) and on a polling timer, renews each
// job's lease while it runs, stops a job on cancel, at its time limit or when its hold is used
// up, and ends it through finishJob (status + ledger in one statement). Webhooks are sent by
// their own loop (webhooks.ts), never from this one.

/** Progress and streamed text are written at most this often per job. */
const FLUSH_MS = 100;
/** Housekeeping (lease recovery, expired outputs and files) runs at most this often. */
const HOUSEKEEPING_MS = 1000;
/** The per-user counts are repaired this often (only jobs deleted by a cascade can skew them). */
const RECOUNT_MS = 30_000;
/**
 * A loaded service is reused this long by the jobs that follow (one read per burst, not per job);
 * up to SERVICE_STALE_MS a job runs with it while it is read again beside the job (serviceCache.ts).
 * Every catalogue write is announced and clears it at once (jobs/index.ts).
 */
const SERVICE_CACHE_MS = 1000;
const SERVICE_STALE_MS = 5000;
/** A finish the database could not take is retried after this, doubling up to the max, while the lease holds. */
const FINISH_RETRY_FIRST_MS = 100;
const FINISH_RETRY_MAX_MS = 2_000;
/** The last retry ends this long before the lease does, so recovery never races a late finish. */
const LEASE_MARGIN_MS = 1_000;

export interface WorkerDeps {
  database: DatabaseHandle;
  config: JobsConfig;
  events: JobEvents;
  runtimes: RuntimeRegistry;
  /** Reads the service to run (publishing owns the table). */
  loadRunnable: LoadRunnable;
  files: FileStore;
  /** The platform's origin: file references in results may point only at its media. */
  publicUrl: string;
  /** Pickup and run times for /metrics. */
  observer?: JobObserver;
  /** Called after a job ended, e.g. to send its webhook now. */
  onFinished?: (job: EndedJob) => void;
}

type StopReason = 'cancel' | 'timeout' | 'hold' | 'shutdown';

interface Running {
  controller: AbortController;
  pool: SlotPool;
  reason?: StopReason;
  done: Promise<void>;
  /** When the lease ends unless renewed (this process's clock): a finish is retried until then. */
  leaseUntil: number;
}

/** Each runtime declares its slot pool (hosting/runtimeRegistry.ts): the worker only counts the slots. */
const poolOf = (job: Pick<JobRow, 'runtime'>): SlotPool => slotPoolOf(job.runtime);

/** Seconds of run the job's hold pays for (Infinity for free runs). */
function heldSeconds(job: JobRow): number {
  const creditsPerSecond = Number(job.price_per_s_usd) * CREDITS_PER_USD;
  return creditsPerSecond > 0 ? Number(job.hold_credits) / creditsPerSecond : Infinity;
}

export class JobWorker {
  readonly id = `worker-${randomUUID()}`;
  readonly #running = new Map<string, Running>();
  readonly #stop = new AbortController();
  #wake: (() => void) | undefined;
  /** Set by every notification; the loop never sleeps while it is set (no lost wake-up). */
  #notified = false;
  /** Counts `q` notifications (work queued, slots freed anywhere): see #start. */
  #queuedHeard = 0;
  #loop: Promise<void> | undefined;
  /**
   * Slots held for jobs a create of this process is inserting and may start in its insert
   * (holdSlots): counted as used until the create settles them, so no claim fills them meanwhile.
   */
  readonly #held: Record<SlotPool, number> = { local: 0, io: 0 };
  /** A claim round ran with slots held: when they are given back, claim again (work may wait). */
  #claimedWhileHeld = false;
  #unsubscribe: Array<() => void> = [];
  readonly #services: ServiceCache<Awaited<ReturnType<LoadRunnable>>>;
  /** Jobs that end while another end is being written are ended together in the next statement. */
  readonly #ends = new GroupCommit<FinishValues, EndedJob | undefined>((ends) =>
    finishJobs(this.deps.database.db, this.deps.events, this.id, ends),
  );

  constructor(private readonly deps: WorkerDeps) {
    this.#services = new ServiceCache((serviceId) => deps.loadRunnable(serviceId), SERVICE_CACHE_MS, SERVICE_STALE_MS);
  }

  get runningJobs(): number {
    return this.#running.size;
  }

  async start(): Promise<void> {
    const { events } = this.deps;
    this.#unsubscribe.push(
      events.onQueued(() => {
        this.#queuedHeard += 1;
        this.#poke();
      }),
      events.onCancel((jobId) => this.#abort(jobId, 'cancel')),
    );
    // PGlite's directory belongs to this process alone: whatever was PROCESSING was ours.
    await this.#recover(this.deps.database.kind === 'pglite');
    this.#loop = Promise.all([this.#run(), this.#housekeeping()]).then(() => {});
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

  /** Work may be waiting (a job was queued or a slot freed): claim before sleeping again. */
  #poke(): void {
    this.#notified = true;
    this.#wake?.();
  }

  #abort(jobId: string, reason: StopReason): void {
    const running = this.#running.get(jobId);
    if (!running || running.reason) return;
    running.reason = reason;
    const why = { cancel: 'Cancelled by its owner', timeout: 'Time limit reached', hold: 'Hold used up', shutdown: 'Shutting down' };
    running.controller.abort(new Error(why[reason]));
  }

  /**
   * Holds a slot for each job a create is about to insert that this worker could run now: the
   * insert then starts the job itself when nothing else waits in the queue (createJobs.ts), one
   * statement and one round trip fewer than queueing it and claiming it (docs/jobs.md, "Started
   * by its create"). Answers, per job, whether a slot is held; each held one must be settled.
   */
  holdSlots(jobs: ReadonlyArray<{ runtime: string; serviceId: string }>): boolean[] {
    const scope = this.deps.runtimes.claimScope();
    return jobs.map((job) => {
      // Before start() (and in a process that runs no worker) there is no loop: nothing starts here.
      if (!this.#loop || this.#stop.signal.aborted) return false;
      // A runner takes jobs of a scoped runtime only for its own deployments, as its claim does.
      if (scope?.runtimes.includes(job.runtime) && !scope.services.includes(job.serviceId)) return false;
      const pool = slotPoolOf(job.runtime);
      if (this.#freeSlots(pool) <= 0) return false;
      this.#held[pool] += 1;
      return true;
    });
  }

  /**
   * Ends a hold of holdSlots: a job its insert started (PROCESSING, leased to this worker) runs
   * in the slot; otherwise the slot is free again (the job was queued, refused or not inserted).
   */
  settleHeld(runtime: string, row: JobRow | undefined): void {
    const pool = slotPoolOf(runtime);
    this.#held[pool] -= 1;
    if (row?.status === 'PROCESSING' && row.worker_id === this.id) this.#start(row);
    else if (this.#claimedWhileHeld) this.#poke();
    if (this.#held.local + this.#held.io === 0) this.#claimedWhileHeld = false;
  }

  #freeSlots(pool: SlotPool): number {
    const { config } = this.deps;
    let used = this.#held[pool];
    for (const running of this.#running.values()) if (running.pool === pool) used++;
    return (pool === 'io' ? config.ioSlots : config.workerSlots) - used;
  }

  async #run(): Promise<void> {
    const { config } = this.deps;
    while (!this.#stop.signal.aborted) {
      // Cleared BEFORE the round: a notification arriving while we claim sets it again, and
      // then the loop claims once more instead of sleeping (the lost wake-up of a poll interval).
      this.#notified = false;
      try {
        await this.#claimRound();
      } catch (error) {
        if (this.#stop.signal.aborted) break;
        // An unreachable database is logged once by its health (db/health.ts), not every poll.
        if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'job worker: claim round failed');
      }
      if (this.#notified || this.#stop.signal.aborted) continue;
      // No await between the check above and registering the wake: nothing can slip in between.
      const pause = sleep(config.pollMs, this.#stop.signal);
      this.#wake = pause.wake;
      await pause.promise;
      this.#wake = undefined;
    }
  }

  /** Lease recovery and expiry, on their own timer so the claim loop only claims. */
  async #housekeeping(): Promise<void> {
    const { database } = this.deps;
    let lastRecount = 0;
    while (!this.#stop.signal.aborted) {
      try {
        if (Date.now() - lastRecount >= RECOUNT_MS) {
          lastRecount = Date.now();
          await recountJobUsers(database.db);
        }
        await this.#recover(false);
        await expireOutputs(database.db);
        await this.deps.files.expire();
      } catch (error) {
        if (!this.#stop.signal.aborted && !isDatabaseUnavailable(error)) log.error({ err: error }, 'job worker: housekeeping failed');
      }
      await sleep(HOUSEKEEPING_MS, this.#stop.signal).promise;
    }
  }

  /** Requeues or fails abandoned jobs (recoverAbandoned); claims when one was requeued. */
  async #recover(everyProcessing: boolean): Promise<void> {
    const { database, config, events } = this.deps;
    const requeued = await recoverAbandoned(database.db, events, config.retentionHours, everyProcessing);
    if (requeued.some((job) => job.status === 'QUEUED')) this.#poke();
  }

  /** Claims for both pools in one statement, until the pools are full or nothing more is claimable. */
  async #claimRound(): Promise<void> {
    const { database, config, events } = this.deps;
    for (;;) {
      if (this.#held.local + this.#held.io > 0) this.#claimedWhileHeld = true;
      const limits = { local: this.#freeSlots('local'), io: this.#freeSlots('io') };
      const wanted = Math.max(0, limits.local) + Math.max(0, limits.io);
      if (wanted === 0 || this.#stop.signal.aborted) break;
      const jobs = await claimJobs(database.db, events, {
        workerId: this.id,
        leaseSeconds: config.leaseSeconds,
        limits,
        ioRuntimes: IO_RUNTIMES,
        maxRunningPerService: config.maxRunningPerService,
        maxRunningPerPublisher: config.maxRunningPerPublisher,
        scope: this.deps.runtimes.claimScope(),
      });
      for (const job of jobs) this.#start(job);
      if (jobs.length < wanted) break;
    }
  }

  #start(job: JobRow): void {
    const controller = new AbortController();
    const entry: Running = {
      controller,
      pool: poolOf(job),
      done: Promise.resolve(),
      leaseUntil: Date.now() + this.deps.config.leaseSeconds * 1000,
    };
    this.#running.set(job.id, entry);
    const claimedAt = Date.now();
    this.deps.observer?.claimed(entry.pool, (claimedAt - new Date(job.created_at).getTime()) / 1000);
    // The freed slot claims again when the end saw work waiting, when the end is unknown, or when
    // work was queued while the job ran: a job queued after the end's snapshot may have been
    // passed over by a claim that still counted this one as running (a plan's concurrency).
    const heardBefore = this.#queuedHeard;
    let workWaiting = true;
    entry.done = this.#execute(job, entry)
      .then((ended) => {
        if (ended) workWaiting = ended.work_waiting;
        if (ended) this.deps.observer?.ended(entry.pool, ended.status, (Date.now() - claimedAt) / 1000);
      })
      .catch((error: unknown) => log.error({ err: error, job: job.id }, `job ${job.id} could not be ended`))
      .finally(() => {
        this.#running.delete(job.id);
        if (workWaiting || this.#queuedHeard !== heardBefore) this.#poke();
      });
  }

  /** Drops the reused services (a catalogue write was announced). */
  forgetServices(): void {
    this.#services.clear();
  }

  /** Runs the job and ends it; answers how it ended (undefined: left for recovery, or no longer ours). */
  async #execute(job: JobRow, entry: Running): Promise<EndedJob | undefined> {
    const { database, config, events, files } = this.deps;
    const { db } = database;
    const service = await this.#services.get(job.service_id);
    const endpoint = service?.endpoints?.find((e) => e.path === job.endpoint);
    const runtime = service && endpoint ? this.deps.runtimes.runtimeFor(service) : undefined;
    if (!service || !endpoint || !runtime) {
      return this.#finish(job, entry, {
        status: 'FAILED',
        error: { code: 'no_runtime', message: `No runtime can run ${job.service_id} ${job.endpoint} on this server any more` },
      });
    }

    const { controller } = entry;
    // The run stops at its time limit, or earlier if its hold pays for less (docs/jobs.md: holds).
    const held = heldSeconds(job);
    const timeLimit = setTimeout(
      () => this.#abort(job.id, held < job.time_limit_s ? 'hold' : 'timeout'),
      Math.min(job.time_limit_s, held) * 1000,
    );
    const heartbeat = setInterval(
      () => {
        const renewing = Date.now();
        renewLease(db, job.id, this.id, config.leaseSeconds)
          .then((lease) => {
            if (lease) entry.leaseUntil = renewing + config.leaseSeconds * 1000;
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

    // What a runtime says is stored in the job and sent to every reader of it: bounded here, where
    // every runtime's words arrive (runtime.ts, boundText), then without NUL, which PostgreSQL
    // does not store.
    const said = (text: string) => withoutNul(boundText(text, MESSAGE_MAX_CHARS));
    const ctx: RunContext = {
      jobId: job.id,
      attempt: job.attempts,
      serviceId: job.service_id,
      endpoint,
      signal: controller.signal,
      progress(fraction, message) {
        state.progress = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
        if (message !== undefined) state.message = said(message);
        changed();
      },
      partialText(delta) {
        state.text = (state.text ?? '') + withoutNul(delta);
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
      else if (error instanceof RuntimeError) outcome = { status: 'FAILED', error: { code: error.code, message: said(error.message) } };
      else if (error instanceof FileInputError) outcome = { status: 'FAILED', error: { code: 'file_input', message: error.message } };
      else {
        log.error({ err: error, job: job.id, runtime: runtime.name }, `job ${job.id}: runtime ${runtime.name} failed`);
        outcome = {
          status: 'FAILED',
          error: { code: 'runtime_error', message: said(`The runtime failed: ${(error as Error)?.message ?? String(error)}`) },
        };
      }
    } finally {
      clearTimeout(timeLimit);
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
    }
    await flushing;
    if (entry.reason === 'shutdown') return undefined; // left PROCESSING: recovery retries it after restart
    if (outcome.status !== 'FINISHED' && state.text !== null && outcome.result === undefined) outcome.result = { text: state.text };
    return this.#finish(job, entry, outcome);
  }

  #stopped(job: JobRow, entry: Running): Outcome {
    if (entry.reason === 'timeout') {
      return {
        status: 'TIMEOUT',
        error: { code: 'timeout', message: `The run took longer than the endpoint's time limit of ${job.time_limit_s} s` },
      };
    }
    if (entry.reason === 'hold') {
      return {
        status: 'TIMEOUT',
        error: { code: 'hold_exhausted', message: 'The run used up the credits held for it when it was accepted' },
      };
    }
    if (entry.reason === 'cancel') return { status: 'CANCELLED', error: null, message: 'Cancelled by its owner' };
    return { status: 'FAILED', error: { code: 'stopped', message: 'The run was stopped' } };
  }

  async #finish(job: JobRow, entry: Running, outcome: Outcome) {
    const { config } = this.deps;
    // A file reference in a result may point only at this platform's media (docs/security.md).
    const confined =
      outcome.result === undefined ? outcome : { ...outcome, result: await confineResult(outcome.result, this.deps.publicUrl) };
    const stored = await this.#whileLeased(job, entry, () => this.#storeResult(job, confined));
    const row = await this.#whileLeased(job, entry, () =>
      this.#ends.add('', finishValues(job, stored.outcome, config.retentionHours, stored.result)),
    );
    if (row) this.deps.onFinished?.(row);
    return row;
  }

  /**
   * Writes the end of finished work, retrying with backoff while the database is unreachable and
   * the job's lease still holds (docs/jobs.md, "When the database goes away"): a brief outage
   * costs a late end, not a second run. Past the lease, recovery owns the job again.
   */
  async #whileLeased<T>(job: JobRow, entry: Running, write: () => Promise<T>): Promise<T> {
    let delay = FINISH_RETRY_FIRST_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const left = entry.leaseUntil - LEASE_MARGIN_MS - Date.now();
        if (!isDatabaseUnavailable(error) || left <= 0 || this.#stop.signal.aborted) throw error;
        if (attempt === 1) log.warn({ job: job.id }, `job ${job.id}: the database is unreachable; retrying its end while the lease holds`);
        await sleep(Math.min(delay, left), this.#stop.signal).promise;
        delay = Math.min(FINISH_RETRY_MAX_MS, delay * 2);
      }
    }
  }

  /**
   * Results over the inline size become a JSON file with its URL in the result; results over the
   * cap fail the job (docs/jobs.md: result sizes). Rows and lists stay small either way.
   */
  async #storeResult(job: JobRow, outcome: Outcome) {
    const { config, files } = this.deps;
    // A JsonText is already serialised (a large answer, runtimes/http/largeJson.ts): it is
    // measured and stored as it is, never stringified on the event loop.
    const serialised = outcome.result instanceof JsonText ? outcome.result.bytes : undefined;
    const result = serialised
      ? {
          json: serialised.byteLength <= config.resultInlineBytes ? Buffer.from(serialised).toString('utf8') : null,
          bytes: serialised.byteLength,
        }
      : serialiseResult(outcome.result);
    if (result.json !== null && hasNul(result.json)) {
      const failed: Outcome = {
        status: 'FAILED',
        error: {
          code: 'service_error',
          message: 'The service answered a result containing a NUL character (U+0000), which cannot be stored',
        },
      };
      return { outcome: failed, result: serialiseResult(undefined) };
    }
    if (result.bytes === null || result.bytes <= config.resultInlineBytes) return { outcome, result };
    if (result.bytes > config.maxResultBytes) {
      const failed: Outcome = {
        status: 'FAILED',
        error: {
          code: 'result_too_large',
          message: `The result is ${result.bytes} bytes; the limit is ${config.maxResultBytes} bytes`,
        },
      };
      return { outcome: failed, result: serialiseResult(undefined) };
    }
    const file = await files.put(serialised ?? new Uint8Array(Buffer.from(result.json!)), 'application/json', {
      userId: job.user_id,
      jobId: job.id,
      expiresAt: new Date(Date.now() + config.retentionHours * 3600_000),
    });
    const stored = { ...outcome, result: { result_file: file } };
    return { outcome: stored, result: serialiseResult(stored.result) };
  }
}
