import { sql } from 'kysely';
import { prepared } from '../db/prepared';
import { counterUpsertSql } from '../http/queries';
import type { Db } from '../db/types';
import { jobChargeCtes, jobFundsSql, planConcurrencySql } from '../payments/queries';
import type { CounterHit, CounterState } from './createLimit';
import type { JobRow } from './envelope';
import type { ClaimScope } from '../runtimes/registry';
import type { JobEvents } from './events';

// Every statement of the job feature, in one place (docs/jobs.md). Each change and its
// notification are ONE statement, so a listener never hears of a change that did not commit, and
// ending a job (status, charge, earning, counters, webhook) is one statement too: one round trip,
// one transaction. Job rows are the holds: a QUEUED or PROCESSING job reserves its
// `hold_credits` from its owner's balance.

/** Marks a retried job's message; the error of a job lost twice. */
export const REQUEUED_MESSAGE = 'Requeued: the worker running this job stopped; retrying once';
export const WORKER_LOST_ERROR = {
  code: 'worker_lost',
  message: 'The worker running this job stopped twice, so it was not retried again. It was not charged.',
};

const OPEN = sql`('QUEUED', 'PROCESSING')`;

// The notifications (jobs/events.ts), as SQL sent in the same statement as the change.
const notice = (events: JobEvents, payload: ReturnType<typeof sql>) => sql`pg_notify(${events.channel}, ${payload})`;
/** `c:<id>:<version>` of the rows the statement returns (columns `id` and `version`). */
const changedNotice = (events: JobEvents) => notice(events, sql`'c:' || ${sql.ref('id')} || ':' || ${sql.ref('version')}`);
/** `q:<origin>`: the process that sends it wakes its own worker itself (events.ts). */
const queuedNotice = (events: JobEvents) => notice(events, sql`${`q:${events.origin}`}`);

// ---------------------------------------------------------------- create, read, list, cancel

export interface NewJob {
  /** Chosen by the caller, so a batch's answers can be matched to its creates. */
  id: string;
  userId: string;
  serviceId: string;
  publisherId: string | null;
  endpoint: string;
  input: Record<string, unknown>;
  runtime: string;
  timeLimitS: number;
  pricePerSecondUsd: number;
  holdCredits: number;
  idempotencyKey: string | null;
  requestHash: string;
  webhookUrl: string | null;
  /** webhook_events_filter; null: only when the job ends. */
  webhookEvents: readonly string[] | null;
}

/** A job just queued, with its place in the queue. */
export type CreatedJob = JobRow & { queue_position: number };

/** What a batch of creates answers: the jobs inserted (by id) and the owner's credits before it. */
export interface InsertedJobs {
  rows: Map<string, CreatedJob>;
  available: number;
  reserved: number;
  /** The create counter after the statement counted the batch (when it was asked to). */
  counter?: CounterState;
}

/**
 * Queues jobs of ONE user and reserves their holds, atomically against the owner's available
 * credits (balance − open holds), in one statement: the jobs are taken in order while their
 * running sum of holds fits, so parallel creates can never reserve more than the balance.
 * Nothing is inserted for a job whose hold does not fit (nor after it), when the balance is not
 * positive, or when the idempotency key is taken; the caller retries those alone to learn why.
 * `job_funds` (migration 012) takes the user's create lock and reads the credits with a snapshot
 * taken after it, so parallel creates of one user (from any process) are checked one after the
 * other, each seeing the holds of those before it. One statement, one round trip.
 * With `count`, the same statement counts the batch on the user's create counter (createLimit.ts)
 * and inserts only the jobs within the limit, as rate-limiter-flexible's own upsert would have
 * counted them one by one.
 */
export async function insertJobsWithHold(db: Db, events: JobEvents, jobs: readonly NewJob[], count?: CounterHit): Promise<InsertedJobs> {
  const userId = jobs[0]!.userId;
  const wanted = jobs.map((job, ord) => ({
    ord,
    id: job.id,
    service_id: job.serviceId,
    publisher_id: job.publisherId,
    endpoint: job.endpoint,
    input: job.input,
    runtime: job.runtime,
    time_limit_s: job.timeLimitS,
    price_per_s_usd: job.pricePerSecondUsd,
    hold_credits: job.holdCredits,
    idempotency_key: job.idempotencyKey,
    request_hash: job.requestHash,
    webhook_url: job.webhookUrl,
    webhook_events: job.webhookEvents,
  }));
  const hit = count ?? { key: null, points: 0, limit: 0, now: 0, expire: 0 };
  type Row = CreatedJob & {
    available_credits: string;
    reserved_credits: string;
    counter_points: number | null;
    counter_expire: string | null;
  };
  const result = await sql<Row>`${prepared('insert_jobs')}
    WITH counted AS MATERIALIZED (
      -- The limiter's own upsert (http/queries.ts), for all of the batch at once.
      ${counterUpsertSql(hit)}
    ), funds AS MATERIALIZED (
      -- After the count (an always-true one-time filter runs it first): every create statement
      -- takes the counter's row lock before the user's create lock, never the other way round.
      SELECT * FROM ${jobFundsSql(userId)} WHERE (SELECT count(*) FROM counted) >= 0
    ), wanted AS (
      SELECT w.*, sum(w.hold_credits) OVER (ORDER BY w.ord) AS holds_so_far
      FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(ord integer, id uuid, service_id text, publisher_id uuid,
        endpoint text, input jsonb, runtime text, time_limit_s integer, price_per_s_usd numeric, hold_credits numeric,
        idempotency_key text, request_hash text, webhook_url text, webhook_events text[])
      -- The i-th create of the batch is within the limit when the count before the batch plus i + 1 is.
      WHERE NOT EXISTS (SELECT FROM counted c WHERE c.points - (${hit.points}::integer - 1 - w.ord) > ${hit.limit}::integer)
    ), ins AS (
      INSERT INTO jobs (id, user_id, service_id, publisher_id, endpoint, input, runtime, time_limit_s, price_per_s_usd,
        hold_credits, idempotency_key, request_hash, webhook_url, webhook_events)
      SELECT w.id, ${userId}::uuid, w.service_id, w.publisher_id, w.endpoint, w.input, w.runtime, w.time_limit_s, w.price_per_s_usd,
        w.hold_credits, w.idempotency_key, w.request_hash, w.webhook_url, w.webhook_events
      FROM wanted w, funds WHERE funds.balance > 0 AND funds.balance - funds.reserved >= w.holds_so_far
      ORDER BY w.ord
      ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
      RETURNING *
    ), waiting AS (
      INSERT INTO job_users (user_id, queued) SELECT ${userId}::uuid, count(*) FROM ins HAVING count(*) > 0
      ON CONFLICT (user_id) DO UPDATE SET queued = job_users.queued + excluded.queued
    )
    SELECT ins.*, funds.balance - funds.reserved AS available_credits, funds.reserved AS reserved_credits,
      (SELECT points FROM counted) AS counter_points, (SELECT expire FROM counted) AS counter_expire,
      CASE WHEN ins.id IS NOT NULL THEN ${queuedNotice(events)} END,
      -- The envelope's queue.position, without another round trip: the queued jobs before it
      -- (this statement does not see its own rows, so the batch's earlier ones are added).
      CASE WHEN ins.id IS NOT NULL THEN
        (SELECT count(*) FROM jobs q WHERE q.status = 'QUEUED' AND (q.created_at, q.id) < (ins.created_at, ins.id))
        + count(ins.id) OVER (ORDER BY ins.created_at, ins.id) - 1
      END AS queue_position
    FROM funds LEFT JOIN ins ON true`.execute(db);
  const first = result.rows[0]!;
  const rows = new Map<string, CreatedJob>();
  for (const { available_credits: _, reserved_credits: __, counter_points: ___, counter_expire: ____, ...row } of result.rows) {
    if (row.id) rows.set(row.id, { ...row, queue_position: Number(row.queue_position) });
  }
  const counter =
    first.counter_points === null ? undefined : { points: Number(first.counter_points), expire: Number(first.counter_expire) };
  return { rows, available: Number(first.available_credits), reserved: Number(first.reserved_credits), counter };
}

export function selectJob(q: Db, userId: string, jobId: string) {
  return q.selectFrom('jobs').selectAll().where('id', '=', jobId).where('user_id', '=', userId).executeTakeFirst() as Promise<
    JobRow | undefined
  >;
}

export function selectJobById(q: Db, jobId: string) {
  return q.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst() as Promise<JobRow | undefined>;
}

export function selectJobByIdempotencyKey(q: Db, userId: string, key: string) {
  return q.selectFrom('jobs').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', key).executeTakeFirst() as Promise<
    JobRow | undefined
  >;
}

/** Results up to this size appear in lists; larger ones only in GET /v1/jobs/{id} (docs/jobs.md). */
export const LIST_RESULT_BYTES = 16 * 1024;

/** A page of the user's jobs, newest first; large results are left out (the list is a summary). */
export async function selectJobPage(q: Db, userId: string, query: { serviceId?: string; limit: number; afterId?: string }) {
  let select = q
    .selectFrom('jobs')
    .selectAll()
    .select(sql<unknown>`CASE WHEN coalesce(result_bytes, 0) <= ${LIST_RESULT_BYTES} THEN result END`.as('result'))
    .where('user_id', '=', userId);
  if (query.serviceId) select = select.where('service_id', '=', query.serviceId);
  if (query.afterId) {
    select = select.where(
      sql<boolean>`(created_at, id) < (SELECT c.created_at, c.id FROM jobs c WHERE c.id = ${query.afterId}::uuid AND c.user_id = ${userId})`,
    );
  }
  return (await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute()) as JobRow[];
}

export async function recentRunSeconds(q: Db, serviceId: string, endpoint: string, limit: number): Promise<number[]> {
  const rows = await q
    .selectFrom('jobs')
    .select('gpu_seconds')
    .where('service_id', '=', serviceId)
    .where('endpoint', '=', endpoint)
    .where('status', '=', 'FINISHED')
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => Number(r.gpu_seconds ?? 0));
}

/** The user's open holds (QUEUED and PROCESSING jobs), newest first, and their sum. */
export async function selectOpenHolds(q: Db, userId: string) {
  const rows = await q
    .selectFrom('jobs')
    .select(['id', 'service_id', 'endpoint', 'hold_credits', 'created_at'])
    .where('user_id', '=', userId)
    .where(sql<boolean>`status IN ${OPEN}`)
    .where('hold_credits', '>', 0)
    .orderBy('created_at', 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => ({ ...r, hold_credits: Number(r.hold_credits) }));
}

/**
 * How many queued jobs run before this one (all users: the queue is shared). The job's own
 * created_at is read in SQL: a JavaScript Date keeps milliseconds, the column microseconds, so
 * jobs created within one millisecond would otherwise be miscounted.
 */
export async function queuePosition(q: Db, row: Pick<JobRow, 'id'>): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM jobs
    WHERE status = 'QUEUED' AND (created_at, id) < (SELECT c.created_at, c.id FROM jobs c WHERE c.id = ${row.id}::uuid)`.execute(q);
  return Number(result.rows[0]?.n ?? 0);
}

/** Ends a queued job at once (its hold is released: it is no longer open). */
export async function cancelQueued(db: Db, events: JobEvents, jobId: string, retentionHours: number) {
  const result = await sql<JobRow>`
    WITH u AS (
      UPDATE jobs SET status = 'CANCELLED', message = 'Cancelled by its owner', finished_at = clock_timestamp(),
        output_expires_at = clock_timestamp() + make_interval(hours => ${retentionHours}), cost_credits = 0, version = version + 1
      WHERE id = ${jobId} AND status = 'QUEUED' RETURNING *
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE ${wantsCompleted}
    ), waiting AS (
      UPDATE job_users SET queued = greatest(job_users.queued - 1, 0) FROM u WHERE job_users.user_id = u.user_id
    )
    SELECT u.*, ${changedNotice(events)} FROM u`.execute(db);
  return result.rows[0];
}

/** Asks the worker running the job to stop it (through the row and a notification). */
export async function requestCancel(db: Db, events: JobEvents, jobId: string) {
  await sql`
    WITH u AS (UPDATE jobs SET cancel_requested = true WHERE id = ${jobId} AND status = 'PROCESSING' RETURNING id)
    SELECT ${notice(events, sql`'x:' || id`)} FROM u`.execute(db);
}

// ---------------------------------------------------------------- the queue

export interface ClaimOptions {
  workerId: string;
  leaseSeconds: number;
  /** How many jobs to take for each slot pool (its free slots): local runtimes, and the I/O runtimes'. */
  limits: { local: number; io: number };
  /** Runtimes of the I/O pool, as they declare it (runtimes/registry.ts, IO_RUNTIMES); every other runs in the local pool. */
  ioRuntimes: readonly string[];
  maxRunningPerService: number;
  maxRunningPerPublisher: number;
  /**
   * Runtimes whose jobs this process may take only for some services (a runner's deployments:
   * docs/deploy.md, "Several runners"; registry.claimScope()); null or absent: every job.
   */
  scope?: ClaimScope | null;
}

/**
 * Claims up to `limits` jobs of each slot pool in ONE statement (docs/jobs.md: fairness):
 * round-robin across users (every user's oldest claimable job before anyone's second, users
 * served longest ago first), each user below their plan's concurrency (the maintained
 * job_users.running, not a count per candidate), each service and publisher below its cap.
 * SKIP LOCKED lets several workers (and processes) claim at once without taking the same job.
 */
export async function claimJobs(db: Db, events: JobEvents, options: ClaimOptions): Promise<JobRow[]> {
  const limits = { local: Math.max(0, options.limits.local), io: Math.max(0, options.limits.io) };
  const ioRuntimes = sql.val(options.ioRuntimes as string[]);
  // A job of a scoped runtime only of the scope's services; with no scope, no runtime is scoped.
  const inScope = sql`(NOT (j.runtime = ANY(${sql.val([...(options.scope?.runtimes ?? [])])}::text[]))
              OR j.service_id = ANY(${sql.val([...(options.scope?.services ?? [])])}::text[]))`;
  const result = await sql<JobRow>`${prepared('claim_jobs')}
    WITH running AS MATERIALIZED (
      SELECT service_id, publisher_id FROM jobs WHERE status = 'PROCESSING'
    ), per_service AS (
      SELECT service_id, count(*) AS n FROM running GROUP BY service_id
    ), per_publisher AS (
      SELECT publisher_id, count(*) AS n FROM running WHERE publisher_id IS NOT NULL GROUP BY publisher_id
    ), waiting AS MATERIALIZED (
      -- Users with queued jobs, with how many more their plan lets run now: read once per user
      -- (materialized), though both pools' subqueries below and their sum limit by it.
      SELECT u.user_id, u.served_at, greatest(${planConcurrencySql('u.user_id')} - u.running, 0) AS room
      FROM job_users u WHERE u.queued > 0
    ), fair AS (
      -- Each waiting user's oldest jobs of the pools with free slots, as many as the plan still
      -- allows, from the claimable index.
      SELECT q.*, u.served_at FROM waiting u
      CROSS JOIN LATERAL (
        SELECT j.*, row_number() OVER (ORDER BY j.created_at, j.id) AS user_rank
        FROM (
          (SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at, false AS io FROM jobs j
            WHERE j.user_id = u.user_id AND j.status = 'QUEUED' AND NOT (j.runtime = ANY(${ioRuntimes}::text[])) AND ${inScope}
            ORDER BY j.created_at, j.id
            LIMIT least(u.room, ${limits.local}::int))
          UNION ALL
          (SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at, true AS io FROM jobs j
            WHERE j.user_id = u.user_id AND j.status = 'QUEUED' AND j.runtime = ANY(${ioRuntimes}::text[]) AND ${inScope}
            ORDER BY j.created_at, j.id
            LIMIT least(u.room, ${limits.io}::int))
          ORDER BY created_at, id
          LIMIT u.room
        ) j
      ) q
    ), capped AS (
      SELECT f.*,
        row_number() OVER (PARTITION BY f.service_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS service_rank,
        row_number() OVER (PARTITION BY f.publisher_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS publisher_rank
      FROM fair f
    ), eligible AS (
      SELECT c.id, c.io,
        row_number() OVER (PARTITION BY c.io ORDER BY c.user_rank, c.served_at NULLS FIRST, c.created_at, c.id) AS pool_rank
      FROM capped c
      LEFT JOIN per_service s ON s.service_id = c.service_id
      LEFT JOIN per_publisher p ON p.publisher_id = c.publisher_id
      WHERE c.service_rank <= ${options.maxRunningPerService} - coalesce(s.n, 0)
        AND (c.publisher_id IS NULL OR c.publisher_rank <= ${options.maxRunningPerPublisher} - coalesce(p.n, 0))
    ), pick AS (
      SELECT id FROM eligible WHERE pool_rank <= CASE WHEN io THEN ${limits.io}::int ELSE ${limits.local}::int END
    ), locked AS (
      SELECT j.id FROM jobs j WHERE j.id IN (SELECT id FROM pick) AND j.status = 'QUEUED' FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE jobs SET
        status = 'PROCESSING',
        worker_id = ${options.workerId},
        lease_until = clock_timestamp() + make_interval(secs => ${options.leaseSeconds}),
        started_at = clock_timestamp(),
        attempts = attempts + 1,
        version = version + 1
      FROM locked WHERE jobs.id = locked.id
      RETURNING jobs.*
    ), started_hooks AS (
      ${eventWebhooks('claimed', 'start')}
    ), counted AS (
      INSERT INTO job_users (user_id, running, served_at)
      SELECT user_id, count(*), clock_timestamp() FROM claimed GROUP BY user_id
      ON CONFLICT (user_id) DO UPDATE SET running = job_users.running + excluded.running,
        queued = greatest(job_users.queued - excluded.running, 0), served_at = excluded.served_at
    )
    SELECT claimed.*, ${changedNotice(events)} FROM claimed ORDER BY claimed.started_at`.execute(db);
  return result.rows;
}

/** Extends the lease; answers whether the owner asked to cancel, or undefined if the job is no longer ours. */
export async function renewLease(db: Db, jobId: string, workerId: string, leaseSeconds: number) {
  const row = await db
    .updateTable('jobs')
    .set({ lease_until: sql`clock_timestamp() + make_interval(secs => ${leaseSeconds})` })
    .where('id', '=', jobId)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'PROCESSING')
    .returning('cancel_requested')
    .executeTakeFirst();
  return row ? { cancelRequested: row.cancel_requested } : undefined;
}

/** Saves progress and streamed text of a running job. */
export async function saveProgress(
  db: Db,
  events: JobEvents,
  jobId: string,
  workerId: string,
  update: { progress: number; message: string | null; text: string | null },
): Promise<void> {
  await sql`
    WITH u AS (
      UPDATE jobs SET
        progress = ${update.progress},
        message = ${update.message},
        result = ${update.text === null ? null : JSON.stringify({ text: update.text })}::jsonb,
        version = version + 1
      WHERE id = ${jobId} AND worker_id = ${workerId} AND status = 'PROCESSING'
      RETURNING id, version, user_id, webhook_url, webhook_events
    ), output_hooks AS (
      ${eventWebhooks('u', 'output')} AND ${update.text !== null}
    )
    SELECT ${changedNotice(events)} FROM u`.execute(db);
}

/**
 * Jobs whose worker stopped (lease passed; on PGlite at start, any PROCESSING job, since only
 * this process can use the data directory): retried once, then FAILED with `worker_lost` (not
 * charged: its hold is released). Either way the owner's running count goes down.
 */
export async function recoverAbandoned(db: Db, events: JobEvents, retentionHours: number, everyProcessing: boolean) {
  const result = await sql<{ id: string; status: string }>`
    WITH lost AS (
      SELECT id FROM jobs
      WHERE status = 'PROCESSING' AND (${everyProcessing} OR lease_until < clock_timestamp())
      FOR UPDATE SKIP LOCKED
    ), u AS (
      UPDATE jobs SET
        status = CASE WHEN jobs.attempts < 2 THEN 'QUEUED' ELSE 'FAILED' END,
        worker_id = NULL,
        lease_until = NULL,
        progress = 0,
        result = NULL,
        result_bytes = NULL,
        message = CASE WHEN jobs.attempts < 2 THEN ${REQUEUED_MESSAGE} ELSE NULL END,
        error = CASE WHEN jobs.attempts < 2 THEN NULL ELSE ${JSON.stringify(WORKER_LOST_ERROR)}::jsonb END,
        finished_at = CASE WHEN jobs.attempts < 2 THEN NULL ELSE clock_timestamp() END,
        output_expires_at = CASE WHEN jobs.attempts < 2 THEN NULL
          ELSE clock_timestamp() + make_interval(hours => ${retentionHours}) END,
        cost_credits = CASE WHEN jobs.attempts < 2 THEN NULL ELSE 0 END,
        version = version + 1
      FROM lost WHERE jobs.id = lost.id
      RETURNING jobs.id, jobs.status, jobs.version, jobs.user_id, jobs.webhook_url, jobs.webhook_events
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url)
      SELECT id, user_id, webhook_url FROM u WHERE status = 'FAILED' AND ${wantsCompleted}
    ), slots AS (
      UPDATE job_users SET running = greatest(job_users.running - n.lost, 0), queued = job_users.queued + n.requeued
      FROM (SELECT user_id, count(*) AS lost, count(*) FILTER (WHERE status = 'QUEUED') AS requeued FROM u GROUP BY user_id) n
      WHERE job_users.user_id = n.user_id
    )
    SELECT u.id, u.status, ${changedNotice(events)}, ${queuedNotice(events)} FROM u`.execute(db);
  return result.rows;
}

/**
 * Re-counts the queued and running jobs of active users. The statements that change a job's
 * status keep the counts exact; this only repairs jobs removed with their user or service
 * (ON DELETE CASCADE), which no statement of ours sees.
 */
export async function recountJobUsers(db: Db): Promise<void> {
  await sql`
    UPDATE job_users u SET queued = c.queued, running = c.running
    FROM (
      SELECT ju.user_id,
        (SELECT count(*) FROM jobs j WHERE j.user_id = ju.user_id AND j.status = 'QUEUED') AS queued,
        (SELECT count(*) FROM jobs j WHERE j.user_id = ju.user_id AND j.status = 'PROCESSING') AS running
      FROM job_users ju WHERE ju.queued > 0 OR ju.running > 0
    ) c
    WHERE u.user_id = c.user_id AND (u.queued <> c.queued OR u.running <> c.running)`.execute(db);
}

/** Clears results past their retention (the job record itself stays; files expire in files.ts). */
export async function expireOutputs(db: Db): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ result: sql`NULL` as never, result_bytes: null })
    .where('output_expires_at', '<', new Date())
    .where('result', 'is not', null)
    .execute();
}

// ---------------------------------------------------------------- ending a job

/** What ending a job answers of it. */
export type EndedJob = Pick<JobRow, 'id' | 'status' | 'version' | 'webhook_url'> & {
  /**
   * Whether any user had queued jobs when the job ended. When none had, the freed slot has nothing
   * to claim: a job queued later wakes the workers itself (its create notifies).
   */
  work_waiting: boolean;
};

export interface FinishValues {
  /** The job to end, as this worker claimed it. */
  job: Pick<JobRow, 'id' | 'user_id' | 'service_id'>;
  status: string;
  /** The result as JSON text (or null), and its size in bytes. */
  resultJson: string | null;
  resultBytes: number | null;
  error: { code: string; message: string } | null;
  message: string | null;
  finishedAt: Date;
  expiresAt: Date;
  gpuSeconds: number | null;
  /** What the run costs, already capped at its hold. */
  costCredits: number;
  /** Whether the run counts as a call (api_usage, the service's run count). */
  counted: boolean;
  month: string;
  usageDescription: string;
}

/**
 * Ends jobs in ONE statement (so one transaction, one round trip for a whole batch): each job's
 * status, its owner's charge settled against its hold (the hold is released by the status
 * leaving QUEUED/PROCESSING), the publisher's share of what was actually collected (an owner's
 * jobs are charged in order, each at most what the balance still holds after the ones before),
 * the usage counters, the stored files' retention, the webhook deliveries and the owners'
 * running counts. Answers what the worker needs of each ended job (not the whole row: its input
 * and result would be parsed for nothing), and whether work is waiting; a job that is no longer
 * this worker's (recovery took it) is left out. Other processes hear of the freed slots only
 * when work is waiting.
 */
export async function finishJobRows(db: Db, events: JobEvents, workerId: string, ends: readonly FinishValues[]): Promise<EndedJob[]> {
  const values = ends.map((v, ord) => ({
    ord,
    id: v.job.id,
    user_id: v.job.user_id,
    service_id: v.job.service_id,
    status: v.status,
    // JSON text inside JSON: the result keeps its exact bytes (and size) until the cast below.
    result: v.resultJson,
    result_bytes: v.resultBytes,
    error: v.error,
    message: v.message,
    finished_at: v.finishedAt.toISOString(),
    expires_at: v.expiresAt.toISOString(),
    gpu_seconds: v.gpuSeconds,
    cost_credits: v.costCredits,
    counted: v.counted,
    month: v.month,
    usage_description: v.usageDescription,
  }));
  const result = await sql<EndedJob>`${prepared('finish_jobs')}
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(ord integer, id uuid, user_id uuid, service_id text,
        status text, result text, result_bytes integer, error jsonb, message text, finished_at timestamptz, expires_at timestamptz,
        gpu_seconds double precision, cost_credits numeric, counted boolean, month text, usage_description text)
    ), u AS (
      UPDATE jobs SET
        status = v.status,
        result = v.result::jsonb,
        result_bytes = v.result_bytes,
        error = v.error,
        message = v.message,
        progress = CASE WHEN v.status = 'FINISHED' THEN 1 ELSE jobs.progress END,
        finished_at = v.finished_at,
        output_expires_at = v.expires_at,
        gpu_seconds = v.gpu_seconds,
        cost_credits = v.cost_credits,
        worker_id = NULL,
        lease_until = NULL,
        version = jobs.version + 1
      FROM v WHERE jobs.id = v.id AND jobs.worker_id = ${workerId} AND jobs.status = 'PROCESSING'
      RETURNING jobs.*
    ), ended AS (
      SELECT v.* FROM v JOIN u ON u.id = v.id
    ), ${jobChargeCtes('ended')}, calls AS (
      INSERT INTO api_usage (user_id, month, calls)
      SELECT user_id, month, count(*) FROM ended WHERE counted GROUP BY user_id, month
      ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + excluded.calls
    ), runs AS (
      UPDATE models SET n_usages = n_usages + r.n
      FROM (SELECT service_id, count(*) AS n FROM ended WHERE counted GROUP BY service_id) r WHERE models.id = r.service_id
    ), files AS (
      UPDATE stored_files SET expires_at = e.expires_at FROM ended e WHERE stored_files.job_id = e.id
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE ${wantsCompleted}
    ), slots AS (
      UPDATE job_users SET running = greatest(running - n.n, 0)
      FROM (SELECT user_id, count(*) AS n FROM u GROUP BY user_id) n WHERE job_users.user_id = n.user_id
    ), waiting AS (
      SELECT EXISTS (SELECT 1 FROM job_users WHERE queued > 0) AS work_waiting
    )
    SELECT u.id, u.status, u.version, u.webhook_url, waiting.work_waiting, ${changedNotice(events)},
      CASE WHEN waiting.work_waiting THEN ${queuedNotice(events)} END
    FROM u, waiting`.execute(db);
  return result.rows;
}

// ---------------------------------------------------------------- webhooks

/**
 * A job's webhook is sent when it ends unless its `webhook_events` (webhook_events_filter,
 * docs/jobs.md "Webhooks") leave `completed` out; a condition on a CTE's job rows.
 */
const wantsCompleted = sql`webhook_url IS NOT NULL AND (webhook_events IS NULL OR 'completed' = ANY(webhook_events))`;

/**
 * An INSERT of one delivery of `event` (start, output, logs) for each job of `rows` (a CTE or
 * table with id, user_id, webhook_url, webhook_events) that asked for it. A delivery of that
 * event still waiting to be claimed stands for the new one: it reads the job when it is sent,
 * so a stream of changes (each token, each log line) makes one delivery at a time, not one each.
 */
function eventWebhooks(rows: 'claimed' | 'u' | 'jobs', event: 'start' | 'output' | 'logs') {
  const r = sql.ref(rows);
  return sql`INSERT INTO webhook_deliveries (job_id, user_id, url, event)
      SELECT ${r}.id, ${r}.user_id, ${r}.webhook_url, ${event} FROM ${sql.table(rows)}
      WHERE ${r}.webhook_url IS NOT NULL AND ${event} = ANY(${r}.webhook_events)
        AND NOT EXISTS (SELECT FROM webhook_deliveries d WHERE d.job_id = ${r}.id AND d.event = ${event}
          AND d.status = 'pending' AND d.attempts = 0 AND d.next_attempt_at <= clock_timestamp())`;
}

/** Deliveries of `logs` for the jobs (of those given) whose container just wrote lines. */
export async function insertLogWebhooks(db: Db, jobIds: readonly string[]): Promise<void> {
  if (jobIds.length === 0) return;
  await sql`${eventWebhooks('jobs', 'logs')} AND jobs.id = ANY(${sql.val([...jobIds])}::uuid[])`.execute(db);
}

export interface DueDelivery {
  id: string;
  job_id: string;
  user_id: string;
  url: string;
  attempts: number;
  /** start, output, logs or completed. */
  event: string;
}

/**
 * Takes up to `limit` due deliveries (SKIP LOCKED), at most `perUser` of any one user, and
 * pushes their next attempt a minute ahead so a crashed sender's deliveries come back.
 */
/**
 * Claims up to `limit` due deliveries, at most `perUser` of a user at a time counting those this
 * sender already has in flight (`inFlight`, per user id): a claimed delivery is pushed 60 s ahead,
 * so without them every poll would take `perUser` more of a user whose receiver hangs, until
 * that user held every slot of the sender.
 */
export async function claimDueWebhooks(db: Db, limit: number, perUser: number, inFlight: ReadonlyMap<string, number>) {
  const result = await sql<DueDelivery>`
    UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp() + interval '60 seconds'
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE id IN (
        SELECT id FROM (
          SELECT id, user_id, next_attempt_at, row_number() OVER (PARTITION BY user_id ORDER BY next_attempt_at) AS user_rank
          FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
        ) due
        WHERE user_rank <= ${perUser} - coalesce((${JSON.stringify(Object.fromEntries(inFlight))}::jsonb ->> user_id::text)::int, 0)
        ORDER BY next_attempt_at LIMIT ${limit}
      )
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, job_id, user_id, url, attempts, event`.execute(db);
  return result.rows;
}

export async function markWebhookDelivered(db: Db, id: string, attempts: number) {
  await db.updateTable('webhook_deliveries').set({ status: 'delivered', attempts, last_error: null }).where('id', '=', id).execute();
}

export async function markWebhookFailed(db: Db, id: string, attempts: number, error: string, retryAt: Date | undefined) {
  await db
    .updateTable('webhook_deliveries')
    .set({ attempts, last_error: error.slice(0, 500), status: retryAt ? 'pending' : 'failed', next_attempt_at: retryAt ?? new Date() })
    .where('id', '=', id)
    .execute();
}

/** Deliveries of the user still waiting to be sent, to cap a user's backlog. */
export async function pendingWebhookCount(q: Db, userId: string): Promise<number> {
  const row = await q
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- prices

const normalise = (column: string) => sql.raw(`lower(regexp_replace(${column}, '^RTX\\s+', '', 'i'))`);

export function selectHostingGpu(q: Db, serviceId: string) {
  return q.selectFrom('model_hosting').select('gpu').where('model_id', '=', serviceId).executeTakeFirst();
}

/** The cheapest pricing-server offer of a GPU, matched by name ("A5000 24 GB" matches "RTX A5000 24 GB"). */
export function selectGpuOffer(q: Db, gpu: string) {
  return q
    .selectFrom('pricing_servers')
    .select(['display_name', 'customer_price_per_s_usd'])
    .where(normalise('display_name'), '=', sql<string>`lower(regexp_replace(${gpu}, '^RTX\\s+', '', 'i'))`)
    .orderBy('customer_price_per_s_usd')
    .orderBy('id')
    .executeTakeFirst();
}

// ---------------------------------------------------------------- stored files (files.ts)

export function selectStoredFile(q: Db, key: string) {
  return q.selectFrom('stored_files').select(['content_type', 'size', 'expires_at']).where('key', '=', key).executeTakeFirst();
}

export async function insertStoredFile(
  q: Db,
  file: { key: string; userId: string; jobId: string | null; contentType: string; size: number; expiresAt: Date },
): Promise<void> {
  await q
    .insertInto('stored_files')
    .values({
      key: file.key,
      user_id: file.userId,
      job_id: file.jobId,
      content_type: file.contentType,
      size: file.size,
      expires_at: file.expiresAt,
    })
    .execute();
}

/** Removes the rows of files past their retention; answers their keys (the bytes go next). */
export async function deleteExpiredFiles(q: Db): Promise<string[]> {
  const rows = await q.deleteFrom('stored_files').where('expires_at', '<', new Date()).returning('key').execute();
  return rows.map((row) => row.key);
}

// ---------------------------------------------------------------- webhook secrets (webhookSecrets.ts)

export interface SealedWebhookSecrets {
  secret_sealed: string;
  previous_sealed: string | null;
  previous_valid_until: Date | null;
}

/** The user's sealed secrets, storing `sealedIfNone` first when the user has none yet. */
export async function selectOrInsertWebhookSecrets(q: Db, userId: string, sealedIfNone: string): Promise<SealedWebhookSecrets> {
  await sql`INSERT INTO webhook_secrets (user_id, secret_sealed) VALUES (${userId}, ${sealedIfNone})
    ON CONFLICT (user_id) DO NOTHING`.execute(q);
  const result = await sql<SealedWebhookSecrets>`
    SELECT secret_sealed, previous_sealed, previous_valid_until FROM webhook_secrets WHERE user_id = ${userId}`.execute(q);
  return result.rows[0]!;
}

/** The current secret becomes the previous one (valid for `overlapHours`) and `sealed` the current. */
export async function rotateWebhookSecretRow(q: Db, userId: string, sealed: string, overlapHours: number): Promise<void> {
  await sql`UPDATE webhook_secrets SET previous_sealed = secret_sealed, secret_sealed = ${sealed},
      previous_valid_until = now() + make_interval(hours => ${overlapHours}), rotated_at = now()
    WHERE user_id = ${userId}`.execute(q);
}
