import { randomUUID } from 'node:crypto';
import type { FieldError, Job, JobCreate, ServiceEndpoint } from '@limelight/widgets/api';
import { creditsForRun } from '@limelight/rules';
import { describeFieldErrors, isFileUrl, validateJobInput } from '@limelight/widgets/run';
import { keyReusedConflict, requestDigest } from '../api/idempotencyDigest';
import type { Db } from '../db/types';
import { DomainError } from '../errors';
import type { JobsConfig } from './config';
import type { CounterHit, CreateLimit } from './createLimit';
import { envelopeOf, isFinalStatus, type JobRow } from './envelope';
import type { JobEvents } from './events';
import { sleep } from './events';
import type { FileStore } from './files';
import { GroupCommit } from '../db/groupCommit';
import { gpuPriceOf, runPriceOf, type GpuPrice } from './pricing';
import { ServiceCache } from './serviceCache';
import {
  pendingWebhookCount,
  queuePosition,
  recentRunSeconds,
  selectJob,
  selectJobByIdempotencyKey,
  selectJobPage,
  selectOpenHolds,
} from './queries';
import { cancelQueued, requestCancel } from './sql/cancelJob';
import { insertJobsWithHold, type CreatedJob, type InsertedJobs, type NewJob } from './sql/createJobs';
import { hardwareOf, type LoadRunnable, type RuntimeRegistry } from '../hosting/runtimeRegistry';
import { webhookUrlProblem } from './webhooks';
import { isUuid } from '../db/uuid';
import type { JobWorker } from './worker';

// The job API's domain, without HTTP: create (validate, price, hold credits, queue), read,
// list, cancel and wait. Failures are DomainErrors (the API's error handler answers them).

/** How many recent runs feed the estimate and the credit check. */
const RECENT_RUNS = 20;

export interface JobServiceDeps {
  db: Db;
  config: JobsConfig;
  publicUrl: string;
  events: JobEvents;
  runtimes: RuntimeRegistry;
  /** Reads the service to run (publishing owns the table). */
  loadRunnable: LoadRunnable;
  files: FileStore;
  /** The per-account limit of creates (counted by the insert statement when it can be). */
  createLimit: CreateLimit;
  /**
   * This process's worker, when it runs one: it holds slots for jobs being created, which their
   * insert then starts itself while the queue is empty (worker.ts, holdSlots).
   */
  slots?: Pick<JobWorker, 'id' | 'holdSlots' | 'settleHeld'>;
}

/** What a create's insert answers: the job, or undefined with the credits that did not cover it. */
interface Inserted {
  row: JobRow | undefined;
  available: number;
  reserved: number;
  /** Over the per-account limit of creates: nothing was inserted. */
  refused?: DomainError;
}

/**
 * A service and its GPU price are reused this long by the creates that follow (one read per
 * burst); up to SERVICE_STALE_MS a create goes on with them while they are read again beside it,
 * as the worker does (serviceCache.ts): a create that waited for the reload, three round trips,
 * was the pickup's slowest once a second (docs/jobs.md, "Speed"). Every catalogue write is
 * announced and clears them at once (jobs/index.ts).
 */
const SERVICE_CACHE_MS = 1000;
const SERVICE_STALE_MS = 5000;

/** The worst case of a run: its whole time limit on the service's GPU (docs/jobs.md: holds). */
export const holdFor = (timeLimitSeconds: number, pricePerSecondUsd: number) => creditsForRun(timeLimitSeconds, pricePerSecondUsd);

const normalisePath = (path: string) => `/${path.replace(/^\/+/, '')}`;

/** A stable digest of what was asked, to tell a retried create from a different one. */
const requestHash = (body: {
  service_id: string;
  endpoint: string;
  input: unknown;
  webhook?: string | null;
  webhook_events_filter?: readonly string[];
}) =>
  requestDigest([
    body.service_id,
    body.endpoint,
    body.input,
    body.webhook ?? null,
    // Only when given, so the keys of creates stored before filters existed still match.
    ...(body.webhook_events_filter ? [[...new Set(body.webhook_events_filter)].sort()] : []),
  ]);

export class JobService {
  /** The services and GPU prices creates check, reused between creates (serviceCache.ts). */
  readonly #services: ServiceCache<Awaited<ReturnType<LoadRunnable>>>;
  readonly #prices: ServiceCache<GpuPrice>;
  /**
   * Creates of one user are checked against the same credits, so they go one statement at a time
   * (on PostgreSQL under the user's lock): instead of each waiting for the lock in turn, the
   * creates that arrive while the user's statement is in flight go together in the next one.
   */
  readonly #inserts = new GroupCommit<NewJob, Inserted>((jobs) => this.#insertBatch(jobs));

  constructor(private readonly deps: JobServiceDeps) {
    this.#services = new ServiceCache((serviceId) => deps.loadRunnable(serviceId), SERVICE_CACHE_MS, SERVICE_STALE_MS);
    this.#prices = new ServiceCache((serviceId) => gpuPriceOf(deps.db, serviceId), SERVICE_CACHE_MS, SERVICE_STALE_MS);
  }

  /** Drops the reused services and prices (a catalogue write was announced). */
  forgetServices(): void {
    this.#services.clear();
    this.#prices.clear();
  }

  get events() {
    return this.deps.events;
  }

  async envelope(row: JobRow | CreatedJob): Promise<Job> {
    // A job just created knows its place already (the insert counted it).
    const known = 'queue_position' in row ? row.queue_position : undefined;
    const position = row.status === 'QUEUED' ? (known ?? (await queuePosition(this.deps.db, row))) : null;
    return envelopeOf(row, this.deps.publicUrl, position);
  }

  /** The service as its owner or the public may see it, and the endpoint asked for. */
  async resolveEndpoint(userId: string, serviceId: string, endpointPath: string | undefined) {
    const service = await this.#services.get(serviceId);
    if (!service || (!service.is_public && service.created_by !== userId))
      throw new DomainError('not_found', `Service ${serviceId} not found`);
    if (service.status === 'paused') throw new DomainError('conflict', `${serviceId} is paused by its owner and does not accept runs`);
    if (service.over_plan_limit) throw new DomainError('payment_required', service.over_plan_limit);
    const refusal = await this.deps.runtimes.refusal(service);
    if (refusal) throw new DomainError('conflict', refusal);
    const endpoints = service.endpoints ?? [];
    if (!endpoints.length) throw new DomainError('not_found', `Service ${serviceId} has no endpoints to run`);
    let endpoint: ServiceEndpoint | undefined;
    if (endpointPath === undefined || endpointPath === '') {
      if (endpoints.length > 1) {
        throw new DomainError('invalid', `endpoint is required: ${serviceId} has ${endpoints.map((e) => e.path).join(', ')}`, [
          { name: 'endpoint', rule: 'required', message: 'endpoint is required' },
        ]);
      }
      endpoint = endpoints[0];
    } else {
      endpoint = endpoints.find((e) => normalisePath(e.path) === normalisePath(endpointPath));
      if (!endpoint)
        throw new DomainError(
          'not_found',
          `Service ${serviceId} has no endpoint ${endpointPath}; it has ${endpoints.map((e) => e.path).join(', ')}`,
        );
    }
    return { service, endpoint: endpoint! };
  }

  recentRunSeconds(serviceId: string, endpoint: string): Promise<number[]> {
    return recentRunSeconds(this.deps.db, serviceId, endpoint, RECENT_RUNS);
  }

  /** The caller's open holds and their sum: what the credits panel shows as reserved. */
  async holds(userId: string) {
    const holds = await selectOpenHolds(this.deps.db, userId);
    const reserved = holds.reduce((sum, h) => sum + h.hold_credits, 0);
    return {
      reserved: Math.round(reserved * 10_000) / 10_000,
      holds: holds.map((h) => ({
        job_id: h.id,
        service_id: h.service_id,
        endpoint: h.endpoint,
        credits: h.hold_credits,
        created_at: new Date(h.created_at).toISOString(),
      })),
    };
  }

  async estimate(userId: string, serviceId: string, endpointPath: string | undefined) {
    const { service, endpoint } = await this.resolveEndpoint(userId, serviceId, endpointPath);
    const price = await runPriceOf(this.deps.db, serviceId, this.deps.runtimes.runsOn(service).hardware);
    return {
      service_id: serviceId,
      endpoint: endpoint.path,
      gpu: price.gpu,
      hardware: price.hardware,
      price_per_s_usd: price.pricePerSecondUsd,
      recent_run_seconds: await this.recentRunSeconds(serviceId, endpoint.path),
    };
  }

  /** File inputs given as URLs must be stored files of this site that still exist, or its seeded examples. */
  async #checkStoredFiles(endpoint: ServiceEndpoint, input: Record<string, unknown>): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const parameter of endpoint.parameters) {
      const isFileList = parameter.type === 'array' && parameter.items?.type === 'file';
      if (parameter.type !== 'file' && !isFileList) continue;
      const values = isFileList ? ((input[parameter.name] as unknown[] | undefined) ?? []) : [input[parameter.name]];
      for (const [i, value] of values.entries()) {
        if (typeof value !== 'string' || !isFileUrl(value)) continue;
        const name = isFileList ? `${parameter.name}.${i}` : parameter.name;
        if (!(await this.deps.files.exists(value))) {
          errors.push({
            name,
            rule: 'file',
            message: `${name} must be a file uploaded with POST /v1/files (or a data: URI); ${value} is not one or has expired`,
          });
        }
      }
    }
    return errors;
  }

  /** Queues a run. Answers the job and whether it is a replay of an earlier create. */
  create(userId: string, body: JobCreate, idempotencyKey?: string): Promise<{ row: JobRow; replayed: boolean }> {
    return this.deps.createLimit.guard(userId, (attempt) => this.#create(userId, body, idempotencyKey, attempt));
  }

  async #create(
    userId: string,
    body: JobCreate,
    idempotencyKey: string | undefined,
    attempt: { counted: boolean },
  ): Promise<{ row: JobRow; replayed: boolean }> {
    const { db, config } = this.deps;
    const { service, endpoint } = await this.resolveEndpoint(userId, body.service_id, body.endpoint);

    const validation = validateJobInput(endpoint, body.input);
    const errors = validation.valid ? await this.#checkStoredFiles(endpoint, validation.value) : validation.errors;
    const webhookProblem =
      body.webhook !== undefined && body.webhook !== null
        ? await webhookUrlProblem(body.webhook, config.webhookAllowPrivate, this.deps.publicUrl, config.webhookOwn)
        : undefined;
    if (webhookProblem) errors.push({ name: 'webhook', rule: 'url', message: webhookProblem });
    if (body.webhook_events_filter && !body.webhook)
      errors.push({ name: 'webhook_events_filter', rule: 'requires', message: 'webhook_events_filter needs a webhook URL' });
    if (errors.length || !validation.valid) throw new DomainError('invalid', describeFieldErrors(errors), errors);
    const input = validation.value;

    const hash = requestHash({
      service_id: service.id,
      endpoint: endpoint.path,
      input,
      webhook: body.webhook,
      webhook_events_filter: body.webhook_events_filter,
    });
    if (idempotencyKey) {
      const existing = await this.#byIdempotencyKey(userId, idempotencyKey, hash);
      if (existing) return { row: existing, replayed: true };
    }

    const runtime = this.deps.runtimes.runtimeFor(service);
    if (!runtime) throw new DomainError('unavailable', `${service.id} cannot run on this server: no runtime serves it`);
    if (body.webhook && (await pendingWebhookCount(db, userId)) >= config.maxPendingWebhooks) {
      throw new DomainError(
        'rate_limited',
        `You have ${config.maxPendingWebhooks} webhook deliveries waiting; jobs with a webhook are accepted again once they are delivered or given up`,
      );
    }

    // Hold the worst case (the whole time limit), not an estimate the publisher's past runs
    // control: parallel creates can then never spend more than the balance (docs/jobs.md: holds).
    // Priced by what runs it (pricing.ts): a demo run holds and costs nothing, a CPU model's run
    // the CPU tier; only GPU prices are read from the database, through the cache.
    const hardware = hardwareOf(runtime.name);
    const price = hardware === 'gpu' ? await this.#prices.get(service.id) : await runPriceOf(db, service.id, hardware);
    const timeLimitS = endpoint.time_limit_s ?? config.defaultTimeLimitSeconds;
    const hold = holdFor(timeLimitS, price.pricePerSecondUsd);
    attempt.counted = true; // by the insert statement, from here on
    const inserted = await this.#inserts.add(userId, {
      id: randomUUID(),
      userId,
      serviceId: service.id,
      publisherId: service.created_by,
      endpoint: endpoint.path,
      input,
      runtime: runtime.name,
      timeLimitS,
      pricePerSecondUsd: price.pricePerSecondUsd,
      holdCredits: hold,
      idempotencyKey: idempotencyKey ?? null,
      requestHash: hash,
      webhookUrl: body.webhook ?? null,
      webhookEvents: body.webhook_events_filter ? [...new Set(body.webhook_events_filter)] : null,
    });
    if (inserted.refused) throw inserted.refused;
    if (inserted.row) return { row: inserted.row, replayed: false };
    if (idempotencyKey) {
      // A concurrent create with the same key won the race: answer its job.
      const existing = await this.#byIdempotencyKey(userId, idempotencyKey, hash);
      if (existing) return { row: existing, replayed: true };
    }
    throw new DomainError(
      'payment_required',
      notEnoughCredits(hold, timeLimitS, inserted.available, inserted.reserved, this.deps.publicUrl),
    );
  }

  /**
   * Inserts jobs of one user with their holds. A job the batch did not insert (its hold did not
   * fit after the others', or its idempotency key was taken) is tried again alone, so it gets
   * exactly the answer it would have had by itself (and is not counted again: the batch counted it).
   */
  async #insertBatch(jobs: NewJob[]): Promise<Inserted[]> {
    const insert = async (batch: NewJob[], count?: CounterHit) => {
      const { slots, config } = this.deps;
      const held = slots?.holdSlots(batch.map((job) => ({ runtime: job.runtime, serviceId: job.serviceId }))) ?? [];
      const startHere = held.some(Boolean)
        ? {
            held,
            workerId: slots!.id,
            leaseSeconds: config.leaseSeconds,
            maxRunningPerService: config.maxRunningPerService,
            maxRunningPerPublisher: config.maxRunningPerPublisher,
          }
        : undefined;
      let inserted: InsertedJobs | undefined;
      try {
        inserted = await insertJobsWithHold(this.deps.db, this.deps.events, batch, count, startHere);
      } finally {
        // Every held slot is settled: its job runs in it, or it is free again.
        for (const [i, job] of batch.entries()) if (held[i]) slots!.settleHeld(job.runtime, inserted?.rows.get(job.id));
      }
      // This process's worker claims what was queued now, without waiting for the notification to come back.
      if ([...inserted.rows.values()].some((row) => row.status === 'QUEUED')) this.deps.events.queuedHere();
      return inserted;
    };
    const limit = this.deps.createLimit;
    const userId = jobs[0]!.userId;
    const count = limit.countsInStatement ? limit.hit(userId, jobs.length) : undefined;
    const inserted = await insert(jobs, count);
    const answers: Inserted[] = [];
    for (const [ord, job] of jobs.entries()) {
      const { available, reserved } = inserted;
      const refused = count && inserted.counter ? limit.refusalAt(userId, count, inserted.counter, ord) : undefined;
      if (refused) {
        answers.push({ row: undefined, available, reserved, refused });
        continue;
      }
      const row = inserted.rows.get(job.id);
      const alone = row || jobs.length === 1 ? inserted : await insert([job]);
      answers.push({ row: alone.rows.get(job.id), available: alone.available, reserved: alone.reserved });
    }
    return answers;
  }

  async #byIdempotencyKey(userId: string, key: string, hash: string): Promise<JobRow | undefined> {
    const row = await selectJobByIdempotencyKey(this.deps.db, userId, key);
    if (row && row.request_hash !== hash) {
      throw keyReusedConflict(key, `job ${row.id}`);
    }
    return row;
  }

  /** The caller's job; another user's job is reported as not found. */
  async get(userId: string, jobId: string): Promise<JobRow> {
    const row = isUuid(jobId) ? await selectJob(this.deps.db, userId, jobId) : undefined;
    if (!row) throw new DomainError('not_found', `Job ${jobId} not found`);
    return row;
  }

  /** A page of the caller's jobs; results over LIST_RESULT_BYTES are left out (read the job for them). */
  async list(userId: string, query: { serviceId?: string; limit: number; cursor?: string }) {
    const rows = await selectJobPage(this.deps.db, userId, {
      serviceId: query.serviceId,
      limit: query.limit,
      afterId: query.cursor ? decodeCursor(query.cursor) : undefined,
    });
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return { rows: page, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  /**
   * Cancels: a queued job at once; a running one is stopped by its worker (asked through the
   * row and a notification), waiting up to `waitMs` for it to end. A final job is left as is.
   */
  async cancel(userId: string, jobId: string, waitMs = 5000): Promise<JobRow> {
    const { db, events, config } = this.deps;
    const row = await this.get(userId, jobId);
    if (isFinalStatus(row.status)) return row;
    const queued = await cancelQueued(db, events, jobId, config.retentionHours);
    if (queued) return queued;
    await requestCancel(db, events, jobId);
    return this.waitForFinal(userId, jobId, waitMs);
  }

  /** The job once it is final, or as it is after `ms`. */
  async waitForFinal(userId: string, jobId: string, ms: number, signal?: AbortSignal): Promise<JobRow> {
    const deadline = Date.now() + ms;
    let row = await this.get(userId, jobId);
    while (!isFinalStatus(row.status) && Date.now() < deadline && !signal?.aborted) {
      const pause = sleep(Math.min(1000, deadline - Date.now()), signal);
      const off = this.deps.events.onChanged(jobId, pause.wake);
      await pause.promise;
      off();
      row = await this.get(userId, jobId);
    }
    return row;
  }
}

// A cursor names the last job of a page; the next page continues below its (created_at, id),
// read from the row so the database's microsecond order is kept exactly.
const encodeCursor = (row: JobRow) => Buffer.from(row.id).toString('base64url');

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw new DomainError('invalid', 'cursor: not a cursor this API returned', [
      { name: 'cursor', rule: 'cursor', message: 'cursor is not valid' },
    ]);
  }
  return id;
}

/** The 402 of a create whose hold does not fit: what it holds, what is free, where to buy more. */
function notEnoughCredits(hold: number, timeLimitS: number, available: number, reserved: number, publicUrl: string): string {
  const free = Math.max(0, Math.round(available * 10_000) / 10_000);
  const held = reserved > 0 ? ` (${Math.round(reserved * 10_000) / 10_000} are reserved by your queued and running jobs)` : '';
  return `Not enough credits: this run reserves up to ${hold} credits (its time limit of ${timeLimitS} s) and ${free} of your credits are available${held}. Buy credits at ${publicUrl}/account/billing`;
}
