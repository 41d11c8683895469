import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Db } from '../../db/types';
import { counterUpsertSql } from '../../http/queries';
import { jobFundsSql, planConcurrencySql } from '../../payments/queries';
import type { CounterHit, CounterState } from '../createLimit';
import type { JobRow } from '../envelope';
import type { JobEvents } from '../events';
import { changedNotice, queuedNotice } from './notices';

// Creating jobs: the insert with its hold, its count on the create limit and its notification,
// in ONE statement (docs/jobs.md, "What makes the path fast"). Job rows are the holds: a QUEUED
// or PROCESSING job reserves its `hold_credits` from its owner's balance (payments/queries.ts, jobFundsSql).

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

/** What the insert needs to start jobs itself (a worker holds their slots) and the caps it keeps. */
export interface StartHere {
  /** Per job of the batch, in order: this process's worker holds a slot for it (worker.ts, holdSlots). */
  held: readonly boolean[];
  workerId: string;
  leaseSeconds: number;
  maxRunningPerService: number;
  maxRunningPerPublisher: number;
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
export async function insertJobsWithHold(
  db: Db,
  events: JobEvents,
  jobs: readonly NewJob[],
  count?: CounterHit,
  startHere?: StartHere,
): Promise<InsertedJobs> {
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
    slot_held: startHere?.held[ord] === true,
  }));
  const start = startHere ?? { held: [], workerId: '', leaseSeconds: 0, maxRunningPerService: 0, maxRunningPerPublisher: 0 };
  const hit = count ?? { key: null, points: 0, limit: 0, now: 0, expire: 0 };
  type Row = CreatedJob & {
    available_credits: string;
    reserved_credits: string;
    counter_points: number | null;
    counter_expire: string | null;
  };
  const result = await sql<Row>`${prepared('insert_jobs')}
    WITH counted AS MATERIALIZED (
      -- The limiter's own upsert, for all of the batch at once.
      ${counterUpsertSql(hit)}
    ), funds AS MATERIALIZED (
      -- After the count (an always-true one-time filter runs it first): every create statement
      -- takes the counter's row lock before the user's create lock, never the other way round.
      SELECT * FROM ${jobFundsSql(userId)} WHERE (SELECT count(*) FROM counted) >= 0
    ), wanted AS (
      SELECT w.*, sum(w.hold_credits) OVER (ORDER BY w.ord) AS holds_so_far
      FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(ord integer, id uuid, service_id text, publisher_id uuid,
        endpoint text, input jsonb, runtime text, time_limit_s integer, price_per_s_usd numeric, hold_credits numeric,
        idempotency_key text, request_hash text, webhook_url text, webhook_events text[], slot_held boolean)
      -- The i-th create of the batch is within the limit when the count before the batch plus i + 1 is.
      WHERE NOT EXISTS (SELECT FROM counted c WHERE c.points - (${hit.points}::integer - 1 - w.ord) > ${hit.limit}::integer)
    ), idle AS MATERIALIZED (
      -- Started by its create (docs/jobs.md): only while nothing waits in the queue, so no job is
      -- passed over, and within the user's plan (the running count kept in job_users).
      SELECT NOT EXISTS (SELECT FROM jobs q WHERE q.status = 'QUEUED') AS queue_empty,
        ${planConcurrencySql('me.user_id')} - coalesce((SELECT u.running FROM job_users u WHERE u.user_id = me.user_id), 0) AS room
      FROM (SELECT ${userId}::uuid AS user_id) me
      WHERE EXISTS (SELECT FROM wanted WHERE slot_held)
    ), startable AS (
      -- A held slot's job starts when the queue is empty, the plan has room for it (the batch's
      -- earlier ones first), its service and publisher are below their caps and it wants no
      -- start webhook (the claim sends those).
      SELECT w.id FROM (
        SELECT w.*, row_number() OVER (ORDER BY w.ord) AS held_rank,
          row_number() OVER (PARTITION BY w.service_id ORDER BY w.ord) AS service_rank,
          row_number() OVER (PARTITION BY w.publisher_id ORDER BY w.ord) AS publisher_rank
        FROM wanted w WHERE w.slot_held
      ) w, idle
      WHERE idle.queue_empty AND w.held_rank <= idle.room
        AND (w.webhook_events IS NULL OR NOT 'start' = ANY(w.webhook_events))
        AND (SELECT count(*) FROM jobs r WHERE r.status = 'PROCESSING' AND r.service_id = w.service_id)
          + w.service_rank <= ${start.maxRunningPerService}::integer
        AND (w.publisher_id IS NULL OR (SELECT count(*) FROM jobs r WHERE r.status = 'PROCESSING' AND r.publisher_id = w.publisher_id)
          + w.publisher_rank <= ${start.maxRunningPerPublisher}::integer)
    ), ins AS (
      INSERT INTO jobs (id, user_id, service_id, publisher_id, endpoint, input, runtime, time_limit_s, price_per_s_usd,
        hold_credits, idempotency_key, request_hash, webhook_url, webhook_events,
        created_at, status, worker_id, lease_until, started_at, attempts, version)
      SELECT w.id, ${userId}::uuid, w.service_id, w.publisher_id, w.endpoint, w.input, w.runtime, w.time_limit_s, w.price_per_s_usd,
        w.hold_credits, w.idempotency_key, w.request_hash, w.webhook_url, w.webhook_events, w.created_at,
        -- A started job is as a claim leaves one (claimJobs.ts): leased, attempt 1, version 2,
        -- started when it was created.
        CASE WHEN w.started THEN 'PROCESSING' ELSE 'QUEUED' END,
        CASE WHEN w.started THEN ${start.workerId} END,
        CASE WHEN w.started THEN w.created_at + make_interval(secs => ${start.leaseSeconds}) END,
        CASE WHEN w.started THEN w.created_at END,
        CASE WHEN w.started THEN 1 ELSE 0 END,
        CASE WHEN w.started THEN 2 ELSE 1 END
      FROM (
        -- clock_timestamp() is taken per row after the sort: the batch's jobs keep their order.
        SELECT w.*, s.id IS NOT NULL AS started, clock_timestamp() AS created_at
        FROM wanted w CROSS JOIN funds LEFT JOIN startable s ON s.id = w.id
        -- A free run (a demo: it holds 0, docs/jobs.md "Metering") needs no positive balance.
        WHERE (w.hold_credits = 0 OR funds.balance > 0) AND funds.balance - funds.reserved >= w.holds_so_far
        ORDER BY w.ord
      ) w
      ORDER BY w.ord
      ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
      RETURNING *
    ), waiting AS (
      INSERT INTO job_users (user_id, queued, running, served_at)
      SELECT ${userId}::uuid, count(*) FILTER (WHERE status = 'QUEUED'), count(*) FILTER (WHERE status = 'PROCESSING'),
        CASE WHEN bool_or(status = 'PROCESSING') THEN clock_timestamp() END
      FROM ins HAVING count(*) > 0
      ON CONFLICT (user_id) DO UPDATE SET queued = job_users.queued + excluded.queued,
        running = job_users.running + excluded.running, served_at = coalesce(excluded.served_at, job_users.served_at)
    )
    SELECT ins.*, funds.balance - funds.reserved AS available_credits, funds.reserved AS reserved_credits,
      (SELECT points FROM counted) AS counter_points, (SELECT expire FROM counted) AS counter_expire,
      CASE ins.status WHEN 'QUEUED' THEN ${queuedNotice(events)} WHEN 'PROCESSING' THEN ${changedNotice(events)} END,
      -- The envelope's queue.position, without another round trip: the queued jobs before it
      -- (this statement does not see its own rows, so the batch's earlier ones are added).
      CASE WHEN ins.status = 'QUEUED' THEN
        (SELECT count(*) FROM jobs q WHERE q.status = 'QUEUED' AND (q.created_at, q.id) < (ins.created_at, ins.id))
        + count(ins.id) FILTER (WHERE ins.status = 'QUEUED') OVER (ORDER BY ins.created_at, ins.id) - 1
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
