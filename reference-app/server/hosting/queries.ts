import { sql } from 'kysely';
import type { Db } from '../db/types';

// Container hosting's SQL (docs/publishing.md, "Container deployments"; docs/deploy.md,
// "Several runners"): deployment leases, deployment and job log lines, the live state the
// runner reports, and what the runner reads back (runtimes, credentials' GPUs, queue depth).

/** A service with its hosting state, by the hosting id or by the service id. */
export function selectHosting(db: Db, by: 'hosted_model_id' | 'model_id', value: string) {
  return db
    .selectFrom('models')
    .leftJoin('model_hosting', 'model_hosting.model_id', 'models.id')
    .select([
      'models.id as model_id',
      'models.provider',
      'models.is_public',
      'models.created_by',
      'model_hosting.hosted_model_id',
      'model_hosting.status',
      'model_hosting.gpu',
      'model_hosting.min_instances',
      'model_hosting.max_instances',
      'model_hosting.instances',
      'model_hosting.last_cold_start_ms',
      'model_hosting.snapshot_bytes',
      'model_hosting.snapshot_taken_at',
      'model_hosting.message',
      'model_hosting.rollout_image',
      'model_hosting.rollout_status',
      'model_hosting.rollout_message',
      'model_hosting.updated_at',
    ])
    .where(by === 'hosted_model_id' ? 'model_hosting.hosted_model_id' : 'models.id', '=', value)
    .where('models.deleted_at', 'is', null)
    .executeTakeFirst();
}

// ---- Leases: one manager per deployment across processes and hosts (deploymentLeases.ts).

/**
 * Takes or renews the lease; true when `holder` holds it afterwards. One statement, so two
 * runners racing for an expired lease cannot both win.
 */
export async function claimLease(db: Db, deploymentId: string, holder: string, ttlMs: number): Promise<boolean> {
  const expires = sql<Date>`now() + ${`${ttlMs} milliseconds`}::interval`;
  const row = await db
    .insertInto('deployment_leases')
    .values({ deployment_id: deploymentId, holder, expires_at: expires })
    .onConflict((oc) =>
      oc
        .column('deployment_id')
        .doUpdateSet({ holder, expires_at: expires })
        .where((eb) => eb.or([eb('deployment_leases.holder', '=', holder), eb('deployment_leases.expires_at', '<', sql<Date>`now()`)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

/** Gives the lease up (a clean shutdown or a deleted deployment), so another runner need not wait. */
export async function releaseLease(db: Db, deploymentId: string, holder: string): Promise<void> {
  await db.deleteFrom('deployment_leases').where('deployment_id', '=', deploymentId).where('holder', '=', holder).execute();
}

export async function leaseHolder(db: Db, deploymentId: string): Promise<string | null> {
  const row = await db
    .selectFrom('deployment_leases')
    .select('holder')
    .where('deployment_id', '=', deploymentId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.holder ?? null;
}

/** The deployments whose lease is held, unexpired, by someone other than `holder`. */
export async function deploymentsHeldByOthers(db: Db, holder: string): Promise<string[]> {
  const rows = await db
    .selectFrom('deployment_leases')
    .select('deployment_id')
    .where('holder', '!=', holder)
    .where('expires_at', '>', sql<Date>`now()`)
    .execute();
  return rows.map((r) => r.deployment_id);
}

// ---- Log lines (hosting/deploymentLogs.ts writes them in batches).

export interface LogRow {
  deployment_id: string;
  /** Null: the deployment's own ring line; set: a line written while this job ran. */
  job_id: string | null;
  at: Date;
  stream: string;
  instance: string;
  line: string;
}

/**
 * Inserts a batch of lines, and tells the streams of the jobs among them (`l:<job id>`); answers
 * those jobs' ids, whose `logs` webhooks the writer then queues (deploymentLogs.ts).
 */
export async function insertLogLines(db: Db, rows: LogRow[], notifyChannel: string | null): Promise<string[]> {
  if (rows.length === 0) return [];
  await db.insertInto('deployment_logs').values(rows).execute();
  const jobIds = [...new Set(rows.map((r) => r.job_id).filter((id): id is string => id !== null))];
  if (notifyChannel && jobIds.length > 0) {
    await sql`SELECT pg_notify(${notifyChannel}, 'l:' || j) FROM unnest(${jobIds}::text[]) AS j`.execute(db);
  }
  return jobIds;
}

/** Deletes a deployment's rows older than its newest `keep` (its lines and its jobs' lines). */
export async function trimDeploymentLogs(db: Db, deploymentId: string, keep: number): Promise<void> {
  await sql`
    DELETE FROM deployment_logs
    WHERE deployment_id = ${deploymentId}
      AND id <= (SELECT id FROM deployment_logs WHERE deployment_id = ${deploymentId} ORDER BY id DESC OFFSET ${keep} LIMIT 1)`.execute(db);
}

/** A job's lines after row `afterId`, oldest first. */
export function selectJobLogLines(db: Db, jobId: string, afterId = '0', limit = 1000) {
  return db
    .selectFrom('deployment_logs')
    .select(['id', 'at', 'stream', 'line'])
    .where('job_id', '=', jobId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** A deployment's newest `count` lines (its own, not the per-job copies), oldest first. */
export async function selectDeploymentLogTail(db: Db, deploymentId: string, count: number) {
  const rows = await db
    .selectFrom('deployment_logs')
    .select(['id', 'at', 'stream', 'instance', 'line'])
    .where('deployment_id', '=', deploymentId)
    .where('job_id', 'is', null)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
  return rows.reverse();
}

/** Up to `count` of the deployment's own lines written after line `since` (an id), oldest first. */
export async function selectDeploymentLogsSince(db: Db, deploymentId: string, since: string, count: number) {
  return db
    .selectFrom('deployment_logs')
    .select(['id', 'at', 'stream', 'instance', 'line'])
    .where('deployment_id', '=', deploymentId)
    .where('job_id', 'is', null)
    .where('id', '>', since)
    .orderBy('id', 'asc')
    .limit(count)
    .execute();
}

// ---- What the runner reports and reads.

export interface StoredReport {
  status: string;
  message: string;
  instances: number;
  base_url: string | null;
  last_cold_start_ms?: number;
  /** The deployment's memory snapshot (docs/deploy.md, "Snapshot cold starts"); null: none any more. */
  snapshot_bytes?: number | null;
  snapshot_taken_at?: Date | null;
  /** Written only when the rollout changed (containerHosting.ts), so a save's `pending` is not overwritten by an older report. */
  rollout_image?: string;
  rollout_status?: string;
  rollout_message?: string;
}

export async function updateHostingState(db: Db, serviceId: string, report: StoredReport): Promise<void> {
  await db
    .updateTable('model_hosting')
    .set({ ...report, updated_at: sql`now()` })
    .where('model_id', '=', serviceId)
    .execute();
}

// ---- The row a save writes (publishing/publishedServices.ts): this file is model_hosting's only
// writer, the runner's reports above and the owner's saves here.

/** What a saved image's rollout says until a runner takes it up (docs/publishing.md, "Rollouts"). */
export const ROLLOUT_PENDING = 'Saved; waiting for the runner to roll it out';

/**
 * The deployment row model_hosting_information reports (container runtimes only). The saved
 * `image`'s rollout becomes `pending`, unless that image's rollout already runs or serves on a
 * live deployment: then the runner reports nothing new for it, and `pending` would never end.
 */
export async function upsertHosting(
  db: Db,
  id: string,
  hosting: { status: string; gpu: string; min_instances: number; max_instances: number },
  image: string,
) {
  const keep = sql<boolean>`(model_hosting.rollout_image = ${image}
    AND model_hosting.rollout_status IN ('pending', 'in_progress', 'succeeded')
    AND model_hosting.status NOT IN ('failed', 'stopped'))`;
  await db
    .insertInto('model_hosting')
    .values({
      hosted_model_id: `hosted-${id}`,
      model_id: id,
      ...hosting,
      rollout_image: image,
      rollout_status: 'pending',
      rollout_message: ROLLOUT_PENDING,
    })
    .onConflict((oc) =>
      oc.column('model_id').doUpdateSet({
        ...hosting,
        rollout_image: sql`CASE WHEN ${keep} THEN model_hosting.rollout_image ELSE ${image} END`,
        rollout_status: sql`CASE WHEN ${keep} THEN model_hosting.rollout_status ELSE 'pending' END`,
        rollout_message: sql`CASE WHEN ${keep} THEN model_hosting.rollout_message ELSE ${ROLLOUT_PENDING} END`,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

/** Records what the fleet reported about a service's container deployment. */
export async function setDeploymentStatus(db: Db, id: string, status: string) {
  await db
    .updateTable('model_hosting')
    .set({ status, updated_at: sql`now()` })
    .where('model_id', '=', id)
    .execute();
}

/** A deleted service's deployment row: stopped, kept for the owner's history. */
export async function stopHosting(db: Db, id: string) {
  await db
    .updateTable('model_hosting')
    .set({ status: 'stopped', updated_at: sql`now()` })
    .where('model_id', '=', id)
    .execute();
}

export async function deleteHosting(db: Db, id: string) {
  await db.deleteFrom('model_hosting').where('model_id', '=', id).execute();
}

/** Who owns a service (its plan sizes the hosting quotas). */
export async function selectServiceOwner(db: Db, serviceId: string): Promise<string | null> {
  return (await db.selectFrom('models').select('created_by').where('id', '=', serviceId).executeTakeFirst())?.created_by ?? null;
}

/** Every active, live container service's runtime row (what the runner deploys). */
export function selectContainerRuntimes(db: Db, serviceId?: string) {
  let query = db
    .selectFrom('service_runtimes')
    .innerJoin('models', 'models.id', 'service_runtimes.model_id')
    .selectAll('service_runtimes')
    .where('service_runtimes.type', '=', 'container')
    .where('models.deleted_at', 'is', null)
    .where('models.status', '=', 'active');
  if (serviceId) query = query.where('service_runtimes.model_id', '=', serviceId);
  return query.execute();
}

/** Queue and run times of the service's newest finished job (model_hosting_information). */
export async function selectLastJobTimes(db: Db, serviceId: string): Promise<{ queue_ms: number; run_ms: number } | null> {
  const row = await db
    .selectFrom('jobs')
    .select(['created_at', 'started_at', 'finished_at'])
    .where('service_id', '=', serviceId)
    .where('status', '=', 'FINISHED')
    .where('started_at', 'is not', null)
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row?.started_at || !row.finished_at) return null;
  const ms = (d: Date) => new Date(d).getTime();
  return { queue_ms: ms(row.started_at) - ms(row.created_at), run_ms: ms(row.finished_at) - ms(row.started_at) };
}
