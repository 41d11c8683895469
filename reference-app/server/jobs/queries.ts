import { sql } from 'kysely';
import type { Db } from '../db/types';
import type { JobRow } from './envelope';
import { eventWebhooks } from './sql/webhookRows';

// The job feature's reads and the SQL of its side tables: webhook deliveries, prices, stored
// files, webhook secrets (docs/jobs.md). The queue's statements, which change a job, are in
// sql/, one file per operation (create with hold, claim, lease renewal, progress, finish,
// cancel, recovery, recount, expiry).

const OPEN = sql`('QUEUED', 'PROCESSING')`;

// ---------------------------------------------------------------- reads

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

// ---------------------------------------------------------------- a container run's cold start

/**
 * How long the job waited for a container to start and where the start came from (`snapshot`,
 * `paused`, `created`, `image`, `warm`; the runner reports both: hosting/containerHosting.ts).
 */
export async function setJobColdStart(db: Db, jobId: string, coldStartMs: number, tier?: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ cold_start_ms: coldStartMs, ...(tier ? { cold_start_tier: tier } : {}) })
    .where('id', '=', jobId)
    .execute();
}

// ---------------------------------------------------------------- webhook deliveries (webhooks.ts)

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

/** The GPU of a service's hosting record and, for a container service, the GPUs each instance holds. */
export function selectHostingGpu(q: Db, serviceId: string) {
  return q
    .selectFrom('model_hosting')
    .leftJoin('service_runtimes', 'service_runtimes.model_id', 'model_hosting.model_id')
    .select(['model_hosting.gpu', 'service_runtimes.gpu_count'])
    .where('model_hosting.model_id', '=', serviceId)
    .executeTakeFirst();
}

/**
 * A pricing-server offer: by its id (what a container runtime's `gpu` saves), else the cheapest
 * of that name ("A5000 24 GB" matches "RTX A5000 24 GB").
 */
export function selectGpuOffer(q: Db, gpu: string) {
  return q
    .selectFrom('pricing_servers')
    .select(['display_name', 'customer_price_per_s_usd'])
    .where((eb) =>
      eb.or([eb('id', '=', gpu), eb(normalise('display_name'), '=', sql<string>`lower(regexp_replace(${gpu}, '^RTX\\s+', '', 'i'))`)]),
    )
    .orderBy(sql`id = ${gpu}`, 'desc')
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
