import { sql } from 'kysely';
import { PUBLISHER_SHARE } from '@limelight/widgets/run';
import type { Db } from '../db/types';
import type { JobRow } from './envelope';
import type { JobEvents } from './events';
import { PLAN_CONCURRENCY } from './plans';

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

/** SQL for the plan's concurrency of the user in `userColumn`, from their active subscription. */
function concurrencyLimitSql(userColumn: string) {
  const cases = Object.entries(PLAN_CONCURRENCY)
    .filter(([plan]) => plan !== 'free')
    .map(([plan, limit]) => `WHEN '${plan}' THEN ${limit}`)
    .join(' ');
  return sql.raw(
    `(CASE (SELECT s.plan_type FROM subscriptions s WHERE s.user_id = ${userColumn} AND s.status = 'active' LIMIT 1) ${cases} ELSE ${PLAN_CONCURRENCY.free} END)`,
  );
}

// ---------------------------------------------------------------- create, read, list, cancel

export interface NewJob {
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
}

/** What an accepted create answers; `row` is undefined when the hold did not fit (or the key raced). */
export interface InsertedJob {
  row: JobRow | undefined;
  available: number;
  reserved: number;
}

/**
 * Queues a job and reserves its hold, atomically against the owner's available credits
 * (balance − open holds): the owner's job_users row is locked first, so parallel creates of one
 * user check in turn and can never reserve more than the balance. Nothing is inserted when the
 * hold does not fit, when the balance is not positive, or when the idempotency key is taken.
 */
export async function insertJobWithHold(db: Db, events: JobEvents, job: NewJob, options: { lockUser: boolean }): Promise<InsertedJob> {
  const insert = async (q: Db) => {
    const result = await sql<JobRow & { available_credits: string; reserved_credits: string }>`
      WITH funds AS (
        SELECT
          (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE user_id = ${job.userId}) AS balance,
          (SELECT coalesce(sum(hold_credits), 0) FROM jobs WHERE user_id = ${job.userId} AND status IN ${OPEN}) AS reserved
      ), ins AS (
        INSERT INTO jobs (user_id, service_id, publisher_id, endpoint, input, runtime, time_limit_s, price_per_s_usd,
          hold_credits, idempotency_key, request_hash, webhook_url)
        SELECT ${job.userId}, ${job.serviceId}, ${job.publisherId}, ${job.endpoint}, ${JSON.stringify(job.input)}::jsonb, ${job.runtime},
          ${job.timeLimitS}, ${job.pricePerSecondUsd}, ${job.holdCredits}, ${job.idempotencyKey}, ${job.requestHash}, ${job.webhookUrl}
        FROM funds WHERE funds.balance > 0 AND funds.balance - funds.reserved >= ${job.holdCredits}
        ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
        RETURNING *
      ), waiting AS (
        INSERT INTO job_users (user_id, queued) SELECT user_id, 1 FROM ins
        ON CONFLICT (user_id) DO UPDATE SET queued = job_users.queued + 1
      )
      SELECT ins.*, funds.balance - funds.reserved AS available_credits, funds.reserved AS reserved_credits,
        CASE WHEN ins.id IS NOT NULL THEN ${events.queued()} END
      FROM funds LEFT JOIN ins ON true`.execute(q);
    const { available_credits, reserved_credits, ...row } = result.rows[0]!;
    return { row: row.id ? (row as JobRow) : undefined, available: Number(available_credits), reserved: Number(reserved_credits) };
  };
  // PGlite runs one statement at a time, so the statement alone is atomic. On PostgreSQL the
  // check must read after the previous create of the user committed: take the user's lock first.
  if (!options.lockUser) return insert(db);
  // An advisory lock, not the job_users row: claims and finishes update that row all the time
  // and must not wait for a create's round trips.
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`jobs create ${job.userId}`}, 0))`.execute(trx);
    return insert(trx);
  });
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

/** How many queued jobs run before this one (all users: the queue is shared). */
export async function queuePosition(q: Db, row: Pick<JobRow, 'id' | 'created_at'>): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM jobs
    WHERE status = 'QUEUED' AND (created_at, id) < (${row.created_at}, ${row.id}::uuid)`.execute(q);
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
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE webhook_url IS NOT NULL
    ), waiting AS (
      UPDATE job_users SET queued = greatest(job_users.queued - 1, 0) FROM u WHERE job_users.user_id = u.user_id
    )
    SELECT u.*, ${events.changed()} FROM u`.execute(db);
  return result.rows[0];
}

/** Asks the worker running the job to stop it (through the row and a notification). */
export async function requestCancel(db: Db, events: JobEvents, jobId: string) {
  await sql`
    WITH u AS (UPDATE jobs SET cancel_requested = true WHERE id = ${jobId} AND status = 'PROCESSING' RETURNING id)
    SELECT ${events.notify(sql`'x:' || id`)} FROM u`.execute(db);
}

// ---------------------------------------------------------------- the queue

export interface ClaimOptions {
  workerId: string;
  leaseSeconds: number;
  /** How many jobs to take (the free slots of the pool). */
  limit: number;
  /** Runtimes of the I/O pool; the claim takes jobs of these runtimes when `io`, others when not. */
  ioRuntimes: readonly string[];
  io: boolean;
  maxRunningPerService: number;
  maxRunningPerPublisher: number;
  /**
   * Container services whose jobs this process may take (the deployments it manages: docs/deploy.md,
   * "Several runners"); null or absent: every one.
   */
  containerServices?: readonly string[] | null;
}

/**
 * Claims up to `limit` jobs of one slot pool in ONE statement (docs/jobs.md: fairness):
 * round-robin across users (every user's oldest claimable job before anyone's second, users
 * served longest ago first), each user below their plan's concurrency (the maintained
 * job_users.running, not a count per candidate), each service and publisher below its cap.
 * SKIP LOCKED lets several workers (and processes) claim at once without taking the same job.
 */
export async function claimJobs(db: Db, events: JobEvents, options: ClaimOptions): Promise<JobRow[]> {
  const result = await sql<JobRow>`
    WITH running AS MATERIALIZED (
      SELECT service_id, publisher_id FROM jobs WHERE status = 'PROCESSING'
    ), per_service AS (
      SELECT service_id, count(*) AS n FROM running GROUP BY service_id
    ), per_publisher AS (
      SELECT publisher_id, count(*) AS n FROM running WHERE publisher_id IS NOT NULL GROUP BY publisher_id
    ), fair AS (
      -- Only users with queued jobs and a free place under their plan: each one's oldest jobs,
      -- as many as the plan still allows, read from the claimable index.
      SELECT q.*, u.served_at FROM job_users u
      CROSS JOIN LATERAL (
        SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at,
          row_number() OVER (ORDER BY j.created_at, j.id) AS user_rank
        FROM (
          SELECT j.id, j.user_id, j.service_id, j.publisher_id, j.created_at FROM jobs j
          WHERE j.user_id = u.user_id AND j.status = 'QUEUED' AND (j.runtime = ANY(${sql.val(options.ioRuntimes as string[])}::text[])) = ${options.io}
            AND (${options.containerServices == null} OR j.runtime IS DISTINCT FROM 'container' OR j.service_id = ANY(${sql.val([...(options.containerServices ?? [])])}::text[]))
          ORDER BY j.created_at, j.id
          LIMIT least(greatest(${concurrencyLimitSql('u.user_id')} - u.running, 0), ${options.limit})
        ) j
      ) q
      WHERE u.queued > 0
    ), capped AS (
      SELECT f.*,
        row_number() OVER (PARTITION BY f.service_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS service_rank,
        row_number() OVER (PARTITION BY f.publisher_id ORDER BY f.user_rank, f.served_at NULLS FIRST, f.created_at, f.id) AS publisher_rank
      FROM fair f
    ), pick AS (
      SELECT c.id FROM capped c
      LEFT JOIN per_service s ON s.service_id = c.service_id
      LEFT JOIN per_publisher p ON p.publisher_id = c.publisher_id
      WHERE c.service_rank <= ${options.maxRunningPerService} - coalesce(s.n, 0)
        AND (c.publisher_id IS NULL OR c.publisher_rank <= ${options.maxRunningPerPublisher} - coalesce(p.n, 0))
      ORDER BY c.user_rank, c.served_at NULLS FIRST, c.created_at, c.id
      LIMIT ${options.limit}
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
    ), counted AS (
      INSERT INTO job_users (user_id, running, served_at)
      SELECT user_id, count(*), clock_timestamp() FROM claimed GROUP BY user_id
      ON CONFLICT (user_id) DO UPDATE SET running = job_users.running + excluded.running,
        queued = greatest(job_users.queued - excluded.running, 0), served_at = excluded.served_at
    )
    SELECT claimed.*, ${events.changed()} FROM claimed ORDER BY claimed.started_at`.execute(db);
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
      RETURNING id, version
    )
    SELECT ${events.changed()} FROM u`.execute(db);
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
      RETURNING jobs.id, jobs.status, jobs.version, jobs.user_id, jobs.webhook_url
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url)
      SELECT id, user_id, webhook_url FROM u WHERE status = 'FAILED' AND webhook_url IS NOT NULL
    ), slots AS (
      UPDATE job_users SET running = greatest(job_users.running - n.lost, 0), queued = job_users.queued + n.requeued
      FROM (SELECT user_id, count(*) AS lost, count(*) FILTER (WHERE status = 'QUEUED') AS requeued FROM u GROUP BY user_id) n
      WHERE job_users.user_id = n.user_id
    )
    SELECT u.id, u.status, ${events.changed()}, ${events.queued()} FROM u`.execute(db);
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

export interface FinishValues {
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
 * Ends a job in ONE statement (so one transaction): the status, the owner's charge settled
 * against the hold (the hold is released by the status leaving QUEUED/PROCESSING), the
 * publisher's share of what was actually collected (never more than the balance held), the
 * usage counters, the stored files' retention, the webhook delivery and the owner's running
 * count. Answers undefined when the job is no longer this worker's (recovery took it).
 */
export async function finishJobRow(db: Db, events: JobEvents, job: JobRow, workerId: string, v: FinishValues) {
  const ifEnded = sql`EXISTS (SELECT 1 FROM u)`;
  const result = await sql<JobRow>`
    WITH u AS (
      UPDATE jobs SET
        status = ${v.status},
        result = ${v.resultJson}::jsonb,
        result_bytes = ${v.resultBytes},
        error = ${v.error ? JSON.stringify(v.error) : null}::jsonb,
        message = ${v.message},
        progress = ${v.status === 'FINISHED' ? 1 : sql`progress`},
        finished_at = ${v.finishedAt},
        output_expires_at = ${v.expiresAt},
        gpu_seconds = ${v.gpuSeconds},
        cost_credits = ${v.costCredits},
        worker_id = NULL,
        lease_until = NULL,
        version = version + 1
      WHERE id = ${job.id} AND worker_id = ${workerId} AND status = 'PROCESSING'
      RETURNING *
    ), collected AS (
      SELECT least(${v.costCredits}::numeric, greatest(coalesce(sum(amount), 0), 0)) AS credits
      FROM credit_ledger WHERE user_id = ${job.user_id} AND ${v.costCredits}::numeric > 0 AND ${ifEnded}
    ), usage AS (
      INSERT INTO credit_ledger (user_id, amount, kind, description, reference)
      SELECT ${job.user_id}, -credits, 'usage', ${v.usageDescription}, ${`job:${job.id}`} FROM collected WHERE credits > 0
    ), earning AS (
      INSERT INTO credit_ledger (user_id, amount, kind, description, reference)
      SELECT m.created_by, floor(c.credits * ${PUBLISHER_SHARE} * 10000 + 1e-9) / 10000, 'earning',
        ${`Share of a run of ${job.service_id}`}, ${`job:${job.id}:earning`}
      FROM collected c JOIN models m ON m.id = ${job.service_id}
      WHERE m.is_public AND m.created_by IS NOT NULL AND m.created_by <> ${job.user_id}
        AND floor(c.credits * ${PUBLISHER_SHARE} * 10000 + 1e-9) > 0
    ), calls AS (
      INSERT INTO api_usage (user_id, month, calls)
      SELECT ${job.user_id}, ${v.month}, 1 WHERE ${v.counted} AND ${ifEnded}
      ON CONFLICT (user_id, month) DO UPDATE SET calls = api_usage.calls + 1
    ), runs AS (
      UPDATE models SET n_usages = n_usages + 1 WHERE id = ${job.service_id} AND ${v.counted} AND ${ifEnded}
    ), files AS (
      UPDATE stored_files SET expires_at = ${v.expiresAt} WHERE job_id = ${job.id} AND ${ifEnded}
    ), hooks AS (
      INSERT INTO webhook_deliveries (job_id, user_id, url) SELECT id, user_id, webhook_url FROM u WHERE webhook_url IS NOT NULL
    ), slots AS (
      UPDATE job_users SET running = greatest(running - 1, 0) WHERE user_id = ${job.user_id} AND ${ifEnded}
    )
    SELECT u.*, ${events.changed()}, ${events.queued()} FROM u`.execute(db);
  return result.rows[0];
}

// ---------------------------------------------------------------- webhooks

export interface DueDelivery {
  id: string;
  job_id: string;
  user_id: string;
  url: string;
  attempts: number;
}

/**
 * Takes up to `limit` due deliveries (SKIP LOCKED), at most `perUser` of any one user, and
 * pushes their next attempt a minute ahead so a crashed sender's deliveries come back.
 */
export async function claimDueWebhooks(db: Db, limit: number, perUser: number) {
  const result = await sql<DueDelivery>`
    UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp() + interval '60 seconds'
    WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE id IN (
        SELECT id FROM (
          SELECT id, next_attempt_at, row_number() OVER (PARTITION BY user_id ORDER BY next_attempt_at) AS user_rank
          FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= clock_timestamp()
        ) due WHERE user_rank <= ${perUser} ORDER BY next_attempt_at LIMIT ${limit}
      )
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, job_id, user_id, url, attempts`.execute(db);
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
