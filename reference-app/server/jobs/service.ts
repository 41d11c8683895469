import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FieldError, Job, JobCreate, ServiceEndpoint } from '@limelight/widgets/api';
import { describeFieldErrors, estimateRun, isFileUrl, validateJobInput } from '@limelight/widgets/run';
import type { Db } from '../db/types';
import { balanceOf } from '../payments/ledger';
import type { JobsConfig } from './config';
import { envelopeOf, isFinalStatus, type JobRow } from './envelope';
import type { JobEvents } from './events';
import { sleep } from './events';
import { MEDIA_FILES_PATH, type FileStore } from './files';
import { gpuPriceOf } from './pricing';
import { queuePosition } from './queue';
import type { LoadRunnable, RuntimeRegistry } from '../runtimes/registry';
import { webhookUrlProblem } from './webhooks';

// The job API's domain, without HTTP: create (validate, price, check credits, queue), read,
// list, cancel and wait. Routes translate JobApiError into responses.

export class JobApiError extends Error {
  override name = 'JobApiError';
  constructor(
    readonly status: 400 | 402 | 404 | 409 | 422 | 503,
    readonly detail: string,
    readonly errors?: FieldError[],
  ) {
    super(detail);
  }
}

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
}

const normalisePath = (path: string) => `/${path.replace(/^\/+/, '')}`;

/** A stable digest of what was asked, to tell a retried create from a different one. */
const requestHash = (body: { service_id: string; endpoint: string; input: unknown; webhook?: string | null }) =>
  createHash('sha256')
    .update(JSON.stringify([body.service_id, body.endpoint, body.input, body.webhook ?? null]))
    .digest('hex');

export class JobService {
  constructor(private readonly deps: JobServiceDeps) {}

  get events() {
    return this.deps.events;
  }

  async envelope(row: JobRow): Promise<Job> {
    const position = row.status === 'QUEUED' ? await queuePosition(this.deps.db, row) : null;
    return envelopeOf(row, this.deps.publicUrl, position);
  }

  /** The service as its owner or the public may see it, and the endpoint asked for. */
  async resolveEndpoint(userId: string, serviceId: string, endpointPath: string | undefined) {
    const service = await this.deps.loadRunnable(serviceId);
    if (!service || (!service.is_public && service.created_by !== userId)) throw new JobApiError(404, `Service ${serviceId} not found`);
    if (service.status === 'paused') throw new JobApiError(409, `${serviceId} is paused by its owner and does not accept runs`);
    const refusal = await this.deps.runtimes.refusal(service);
    if (refusal) throw new JobApiError(409, refusal);
    const endpoints = service.endpoints ?? [];
    if (!endpoints.length) throw new JobApiError(404, `Service ${serviceId} has no endpoints to run`);
    let endpoint: ServiceEndpoint | undefined;
    if (endpointPath === undefined || endpointPath === '') {
      if (endpoints.length > 1) {
        throw new JobApiError(422, `endpoint is required: ${serviceId} has ${endpoints.map((e) => e.path).join(', ')}`, [
          { name: 'endpoint', rule: 'required', message: 'endpoint is required' },
        ]);
      }
      endpoint = endpoints[0];
    } else {
      endpoint = endpoints.find((e) => normalisePath(e.path) === normalisePath(endpointPath));
      if (!endpoint)
        throw new JobApiError(
          404,
          `Service ${serviceId} has no endpoint ${endpointPath}; it has ${endpoints.map((e) => e.path).join(', ')}`,
        );
    }
    return { service, endpoint: endpoint! };
  }

  async recentRunSeconds(serviceId: string, endpoint: string): Promise<number[]> {
    const rows = await this.deps.db
      .selectFrom('jobs')
      .select('gpu_seconds')
      .where('service_id', '=', serviceId)
      .where('endpoint', '=', endpoint)
      .where('status', '=', 'FINISHED')
      .orderBy('finished_at', 'desc')
      .limit(RECENT_RUNS)
      .execute();
    return rows.map((r) => Number(r.gpu_seconds ?? 0));
  }

  async estimate(userId: string, serviceId: string, endpointPath: string | undefined) {
    const { endpoint } = await this.resolveEndpoint(userId, serviceId, endpointPath);
    const price = await gpuPriceOf(this.deps.db, serviceId);
    return {
      service_id: serviceId,
      endpoint: endpoint.path,
      gpu: price.gpu,
      price_per_s_usd: price.pricePerSecondUsd,
      recent_run_seconds: await this.recentRunSeconds(serviceId, endpoint.path),
    };
  }

  /** File inputs given as URLs must be stored files of this site that still exist. */
  async #checkStoredFiles(endpoint: ServiceEndpoint, input: Record<string, unknown>): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    for (const parameter of endpoint.parameters) {
      const isFileList = parameter.type === 'array' && parameter.items?.type === 'file';
      if (parameter.type !== 'file' && !isFileList) continue;
      const values = isFileList ? ((input[parameter.name] as unknown[] | undefined) ?? []) : [input[parameter.name]];
      for (const [i, value] of values.entries()) {
        if (typeof value !== 'string' || !isFileUrl(value)) continue;
        const name = isFileList ? `${parameter.name}.${i}` : parameter.name;
        const path = value.startsWith(this.deps.publicUrl) ? value.slice(this.deps.publicUrl.length) : value;
        const stored = path.startsWith(MEDIA_FILES_PATH) ? await this.deps.files.get(path.slice(MEDIA_FILES_PATH.length)) : undefined;
        if (!stored) {
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
  async create(userId: string, body: JobCreate, idempotencyKey?: string): Promise<{ row: JobRow; replayed: boolean }> {
    const { db, config, events } = this.deps;
    const { service, endpoint } = await this.resolveEndpoint(userId, body.service_id, body.endpoint);

    const validation = validateJobInput(endpoint, body.input);
    const errors = validation.valid ? await this.#checkStoredFiles(endpoint, validation.value) : validation.errors;
    const webhookProblem =
      body.webhook !== undefined && body.webhook !== null ? webhookUrlProblem(body.webhook, config.webhookAllowPrivate) : undefined;
    if (webhookProblem) errors.push({ name: 'webhook', rule: 'url', message: webhookProblem });
    if (errors.length || !validation.valid) throw new JobApiError(422, describeFieldErrors(errors), errors);
    const input = validation.value;

    const hash = requestHash({ service_id: service.id, endpoint: endpoint.path, input, webhook: body.webhook });
    if (idempotencyKey) {
      const existing = await this.#byIdempotencyKey(userId, idempotencyKey, hash);
      if (existing) return { row: existing, replayed: true };
    }

    const runtime = this.deps.runtimes.runtimeFor(service);
    if (!runtime) throw new JobApiError(503, `${service.id} cannot run on this server: no runtime serves it`);

    const price = await gpuPriceOf(db, service.id);
    const estimate = estimateRun({
      pricePerSecondUsd: price.pricePerSecondUsd,
      recentRunSeconds: await this.recentRunSeconds(service.id, endpoint.path),
    });
    const balance = await balanceOf(db, userId);
    if (balance <= 0 || balance < estimate.credits) {
      throw new JobApiError(
        402,
        `Not enough credits: this run costs about ${estimate.credits} credits and your balance is ${balance}. Buy credits at ${this.deps.publicUrl}/account/billing`,
      );
    }

    const inserted = await sql<JobRow>`
      WITH ins AS (
        INSERT INTO jobs (user_id, service_id, endpoint, input, runtime, time_limit_s, price_per_s_usd, idempotency_key, request_hash, webhook_url)
        VALUES (${userId}, ${service.id}, ${endpoint.path}, ${JSON.stringify(input)}::jsonb, ${runtime.name},
          ${endpoint.time_limit_s ?? config.defaultTimeLimitSeconds}, ${price.pricePerSecondUsd}, ${idempotencyKey ?? null}, ${hash}, ${body.webhook ?? null})
        ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING *
      )
      SELECT ins.*, ${events.queued()} FROM ins`.execute(db);
    const row = inserted.rows[0];
    if (row) return { row, replayed: false };
    // A concurrent create with the same key won the race: answer its job.
    const existing = await this.#byIdempotencyKey(userId, idempotencyKey!, hash);
    if (!existing) throw new JobApiError(409, 'The job could not be created; retry');
    return { row: existing, replayed: true };
  }

  async #byIdempotencyKey(userId: string, key: string, hash: string): Promise<JobRow | undefined> {
    const row = (await this.deps.db
      .selectFrom('jobs')
      .selectAll()
      .where('user_id', '=', userId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst()) as JobRow | undefined;
    if (row && row.request_hash !== hash) {
      throw new JobApiError(409, `Idempotency-Key ${key} was already used for a different request (job ${row.id})`);
    }
    return row;
  }

  /** The caller's job; another user's job is reported as not found. */
  async get(userId: string, jobId: string): Promise<JobRow> {
    const row = /^[0-9a-f-]{36}$/i.test(jobId)
      ? ((await this.deps.db.selectFrom('jobs').selectAll().where('id', '=', jobId).where('user_id', '=', userId).executeTakeFirst()) as
          JobRow | undefined)
      : undefined;
    if (!row) throw new JobApiError(404, `Job ${jobId} not found`);
    return row;
  }

  async list(userId: string, query: { serviceId?: string; limit: number; cursor?: string }) {
    let q = this.deps.db.selectFrom('jobs').selectAll().where('user_id', '=', userId);
    if (query.serviceId) q = q.where('service_id', '=', query.serviceId);
    if (query.cursor) {
      const id = decodeCursor(query.cursor);
      q = q.where(
        sql<boolean>`(created_at, id) < (SELECT c.created_at, c.id FROM jobs c WHERE c.id = ${id}::uuid AND c.user_id = ${userId})`,
      );
    }
    const rows = (await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute()) as JobRow[];
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
    const expires = sql`clock_timestamp() + make_interval(hours => ${config.retentionHours})`;
    const queued = await sql<JobRow>`
      WITH u AS (
        UPDATE jobs SET status = 'CANCELLED', message = 'Cancelled by its owner', finished_at = clock_timestamp(),
          output_expires_at = ${expires}, cost_credits = 0, version = version + 1
        WHERE id = ${jobId} AND status = 'QUEUED' RETURNING *
      ), hooks AS (
        INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE webhook_url IS NOT NULL
      )
      SELECT u.*, ${events.changed()} FROM u`.execute(db);
    if (queued.rows[0]) return queued.rows[0];
    await sql`
      WITH u AS (UPDATE jobs SET cancel_requested = true WHERE id = ${jobId} AND status = 'PROCESSING' RETURNING id)
      SELECT ${events.notify(sql`'x:' || id`)} FROM u`.execute(db);
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
    throw new JobApiError(422, 'cursor: not a cursor this API returned', [
      { name: 'cursor', rule: 'cursor', message: 'cursor is not valid' },
    ]);
  }
  return id;
}
