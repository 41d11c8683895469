// Job queue benchmarks, on PGlite and, when available, PostgreSQL (`npm run bench jobs`):
//   node --conditions=source --import tsx test/bench/jobs.bench.ts
// - jobs/s: BENCH_JOBS (default 300) jobs submitted through POST /v1/jobs (10 at a time) and run
//   by a no-op runtime, from the first submit until the last one is FINISHED, after BENCH_WARMUP
//   (default 100) jobs run the same way (for graphile-worker too);
// - over BENCH_STREAMS (default 50) sequential jobs, p50/p99 of: submit -> the runtime starts the
//   job (the queue's pickup: the job is PROCESSING; the same point as graphile-worker's task
//   start), and what a client sees: submit -> the first event past QUEUED on a stream opened
//   once the create answered (a second request, which graphile-worker's figure has no part of),
//   in a pass of its own: the pickups are timed with the client waiting and doing nothing else,
//   as the anchor's are.
// The bench user gets the enterprise plan (16 concurrent jobs) and the server 16 worker slots,
// so the plan limit is not what is measured. It measures and never fails on timings.
// On PostgreSQL the same work runs through graphile-worker (the anchor, docs/jobs.md: speed) on
// the same database: add_job -> task start is its pickup; and the HTTP anchor (httpGraphileAnchor.mjs),
// an HTTP job API on graphile-worker, in a process of its own. Each database ends with one JSON line.
// BENCH_BACKGROUND_LOAD=N runs N CPU burners beside it all (backgroundLoad.ts).
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Runtime } from '../../reference-app/server/runtimes/runtime';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import { testPostgres } from '../integration/jobs/postgres';
import { graphileBench, percentile } from './jobsGraphile';
import { atATime, request, textOf } from './benchLoad';
import { postgresCpu, withCpu } from './processTreeCpu';
import { backgroundLoadWanted, loadAverage, startBackgroundLoad } from './backgroundLoad';

const JOBS = Number(process.env.BENCH_JOBS ?? 300);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
/**
 * Jobs run the same way before measuring, by ours and by graphile-worker alike: code compiled by
 * the JIT, pools filled, each connection's prepared statements planned. Without it the 300
 * measured jobs were partly a measure of start-up. Ours also opens 10 streams first: the pickup's
 * p99 of 50 samples is their slowest, which was the first stream opened.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
/** Ledger entries the bench user has before the first job (a user with a long history of runs). */
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0);
const SERVICE = 'lime-diffusion-xl';

/** When the runtime started each job, by prompt: the pickup's end, as graphile-worker's task start. */
const started = new Map<string, number>();
const onStart = new Map<string, () => void>();
const noop: Runtime = {
  name: 'noop',
  run: async (input) => {
    const prompt = String(input.prompt);
    started.set(prompt, performance.now());
    onStart.get(prompt)?.();
    return { echo: input.prompt };
  },
};
/** When the runtime starts (started) the job of `prompt`. */
const startOf = (prompt: string) =>
  started.has(prompt)
    ? Promise.resolve(started.get(prompt)!)
    : new Promise<number>((resolve) => onStart.set(prompt, () => resolve(started.get(prompt)!)));

/** A user signed up through the auth API (auto-confirmed), on the enterprise plan, with credits. */
async function benchUser(server: PlatformTestServer): Promise<string> {
  const response = await fetch(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: server.authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.test`, password: 'bench-password' }),
  });
  const session = (await response.json()) as { access_token?: string; user?: { id: string } };
  if (!session.access_token || !session.user) throw new Error(`sign-up answered ${response.status}`);
  const db = server.platform.database.db;
  await db
    .insertInto('subscriptions')
    .values({
      user_id: session.user.id,
      plan_type: 'enterprise',
      status: 'active',
      provider: 'sandbox',
      cancel_at_period_end: false,
      current_period_end: null,
    })
    .execute();
  await db
    .insertInto('credit_ledger')
    .values({ user_id: session.user.id, amount: 1_000_000, kind: 'adjustment', description: 'bench credits' })
    .execute();
  // BENCH_HISTORY ledger entries before the first job: a user who has run that many jobs before.
  await sql`INSERT INTO credit_ledger (user_id, amount, kind, description)
    SELECT ${session.user.id}::uuid, -0.0001, 'usage', 'an earlier run' FROM generate_series(1, ${HISTORY})`.execute(db);
  await sql`ANALYZE credit_ledger`.execute(db);
  return session.access_token;
}

/** The bytes of the last create, request and answer: the HTTP floor's load is made of them. */
let lastCreate: { request: string; answer: string } | undefined;

const submit = async (server: PlatformTestServer, token: string, prompt: string) => {
  const body = JSON.stringify({ service_id: SERVICE, input: { prompt } });
  const response = await request(new URL('/v1/jobs', server.url), token, 'POST', body);
  const text = await textOf(response);
  if (response.statusCode !== 201) throw new Error(`create answered ${response.statusCode}: ${text}`);
  lastCreate = { request: body, answer: text };
  return JSON.parse(text) as { job_id: string };
};

/** Submits `jobs` jobs 10 at a time and waits until they are FINISHED; answers jobs per second. */
async function throughput(server: PlatformTestServer, token: string, jobs: number): Promise<number> {
  const db = server.platform.database.db;
  const finished = async () =>
    Number(
      (
        await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 'FINISHED')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const before = await finished();
  const started = performance.now();
  await atATime(jobs, 10, (i) => submit(server, token, `job ${i}`));
  while ((await finished()) < before + jobs) await new Promise((r) => setTimeout(r, 5));
  return jobs / ((performance.now() - started) / 1000);
}

/**
 * Submit -> the runtime starts the job, for `count` jobs one after the other, the client doing
 * nothing else meanwhile: the anchor's measure (httpGraphileAnchor.mjs), which waits the same way.
 */
async function pickupLatency(server: PlatformTestServer, token: string, count: number) {
  const pickup: number[] = [];
  for (let i = 0; i < count; i++) {
    const prompt = `pickup ${i}`;
    started.delete(prompt);
    const t0 = performance.now();
    await submit(server, token, prompt);
    pickup.push((await startOf(prompt)) - t0);
    onStart.delete(prompt);
  }
  return pickup;
}

/** Submit -> the first event past QUEUED on a stream opened once the create answered, one job after the other. */
async function streamLatency(server: PlatformTestServer, token: string, count: number) {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const { job_id } = await submit(server, token, `stream ${i}`);
    const response = await request(new URL(`/v1/jobs/${job_id}/stream`, server.url), token, 'GET');
    response.setEncoding('utf8');
    let buffer = '';
    for await (const chunk of response) {
      buffer += chunk;
      if (/"status":"(PROCESSING|FINISHED)"/.test(buffer)) {
        seen.push(performance.now() - t0);
        response.destroy();
        break;
      }
    }
  }
  return seen;
}

const perJob = (ms: number) => Math.round((ms / JOBS) * 100) / 100;

async function run(label: string, server: PlatformTestServer, databaseCpu?: () => number) {
  try {
    const token = await benchUser(server);
    await throughput(server, token, WARMUP);
    // The stream is part of the measured pickup: its path is warmed up too (graphile-worker's
    // pickup is add_job -> task start, which its warm-up already ran).
    await streamLatency(server, token, Math.min(10, WARMUP));
    const loop = performance.eventLoopUtilization();
    const measured = await withCpu(databaseCpu, () => throughput(server, token, JOBS));
    const { utilization } = performance.eventLoopUtilization(loop);
    const pickup = await pickupLatency(server, token, STREAMS);
    const seen = await streamLatency(server, token, STREAMS);
    const ms = (values: number[], p: number) => Math.round(percentile(values, p) * 10) / 10;
    return {
      database: label,
      'jobs/s': Math.round(measured.result),
      'pickup p50 ms': ms(pickup, 0.5),
      'pickup p99 ms': ms(pickup, 0.99),
      'SSE sees it p50 ms': ms(seen, 0.5),
      'SSE sees it p99 ms': ms(seen, 0.99),
      // The process is client, API and worker at once: its CPU per job bounds jobs/s on one core.
      'CPU ms/job': perJob(measured.processMs),
      // PostgreSQL's processes (all of them, this run's only): on two cores they share the budget with ours.
      'PG CPU ms/job': measured.databaseMs === undefined ? '-' : perJob(measured.databaseMs),
      // The share of the phase the one JavaScript thread was busy: near 100 %, it is the bound.
      'loop busy %': Math.round(utilization * 100),
    };
  } finally {
    await server.close();
  }
}

const env = {
  MAILER_AUTOCONFIRM: 'true',
  JOB_WORKER_SLOTS: '16',
  RATE_LIMIT_SIGN_IN: '0',
  RATE_LIMIT_SIGN_UP: '0',
  RATE_LIMIT_EMAIL_SENT: '0',
  // The per-account limit of job creates stays on the path, above what the bench sends.
  RATE_LIMIT_JOBS: String(Math.max(3000, 2 * (JOBS + STREAMS))),
};
/** What the HTTP anchor (httpGraphileAnchor.mjs) prints. */
interface AnchorFigures {
  jobs_per_s: number;
  pickup_p50_ms: number;
  pickup_p99_ms: number;
  cpu_ms_per_job: number;
}
const BACKGROUND_LOAD = backgroundLoadWanted();
/** The line CI and the docs read: exactly these keys, in this order. */
const jsonLine = (row: Awaited<ReturnType<typeof run>>, graphile?: { jobsPerSecond: number; pickupP99: number }, anchor?: AnchorFigures) =>
  JSON.stringify({
    bench: 'jobs',
    database: row.database,
    jobs_per_s: row['jobs/s'],
    pickup_p50_ms: row['pickup p50 ms'],
    pickup_p99_ms: row['pickup p99 ms'],
    ...(graphile ? { graphile_jobs_per_s: graphile.jobsPerSecond, graphile_pickup_p99_ms: graphile.pickupP99 } : {}),
    ...(anchor
      ? { anchor_jobs_per_s: anchor.jobs_per_s, anchor_pickup_p50_ms: anchor.pickup_p50_ms, anchor_pickup_p99_ms: anchor.pickup_p99_ms }
      : {}),
    background_load: BACKGROUND_LOAD,
    load_avg: loadAverage(),
  });

/**
 * The HTTP anchor on the same PostgreSQL, in a process of its own (its HTTP server, client and
 * graphile-worker runner, as ours are in this one), with the same jobs, warm-up and sequential pickups.
 */
function httpAnchor(databaseUrl: string): AnchorFigures {
  const out = execFileSync(process.execPath, [fileURLToPath(new URL('./httpGraphileAnchor.mjs', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BENCH_JOBS: String(JOBS),
      BENCH_WARMUP: String(WARMUP),
      BENCH_STREAMS: String(STREAMS),
    },
  });
  const line = out.toString().trim().split('\n').at(-1)!;
  return JSON.parse(line) as AnchorFigures;
}

// BENCH_DATABASE=PGlite or PostgreSQL runs one of them. Without it each runs in a process of its
// own: after the PGlite run this process held a large heap (PGlite's memory, its server's) that
// cost the PostgreSQL run measured after it up to 40 % of its jobs/s in garbage collection.
const only = process.env.BENCH_DATABASE;
// The burners run in the first process only, for the whole bench (its database runs included).
const stopBackgroundLoad = process.env.BENCH_BACKGROUND_STARTED ? () => {} : startBackgroundLoad(BACKGROUND_LOAD);
if (!only) {
  for (const database of ['PGlite', 'PostgreSQL']) {
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_DATABASE: database, BENCH_BACKGROUND_STARTED: '1' },
    });
  }
  stopBackgroundLoad();
  process.exit(0);
}
const rows: Array<Record<string, string | number>> = [];
const lines: string[] = [];
if (only === 'PGlite') {
  const lite = await run('PGlite', await startPlatformServer({ runtimes: () => noop, env, databaseUrl: '' }));
  rows.push(lite);
  lines.push(jsonLine(lite));
}
const pg = only !== 'PostgreSQL' ? undefined : await testPostgres();
if (pg && 'skip' in pg) console.log(`PostgreSQL skipped: ${pg.skip}`);
else if (pg) {
  try {
    const databaseCpu = postgresCpu(pg.dataDir);
    const ours = await run('PostgreSQL', await startPlatformServer({ runtimes: () => noop, env, databaseUrl: pg.url }), databaseCpu);
    const graphile = await graphileBench(pg.url, { jobs: JOBS, warmup: WARMUP, sequential: STREAMS, concurrency: 16 }, databaseCpu);
    const anchor = httpAnchor(pg.url);
    rows.push(
      ours,
      {
        database: 'PostgreSQL, graphile-worker',
        'jobs/s': graphile.jobsPerSecond,
        'pickup p50 ms': graphile.pickupP50,
        'pickup p99 ms': graphile.pickupP99,
        'SSE sees it p50 ms': '-',
        'SSE sees it p99 ms': '-',
        'CPU ms/job': perJob(graphile.cpuMs),
        'PG CPU ms/job': graphile.databaseCpuMs === undefined ? '-' : perJob(graphile.databaseCpuMs),
        'loop busy %': '-',
      },
      {
        database: 'PostgreSQL, HTTP API on graphile-worker (anchor)',
        'jobs/s': anchor.jobs_per_s,
        'pickup p50 ms': anchor.pickup_p50_ms,
        'pickup p99 ms': anchor.pickup_p99_ms,
        'SSE sees it p50 ms': '-',
        'SSE sees it p99 ms': '-',
        'CPU ms/job': anchor.cpu_ms_per_job,
        'PG CPU ms/job': '-',
        'loop busy %': '-',
      },
    );
    lines.push(jsonLine(ours, graphile, anchor));
  } finally {
    await pg.stop();
  }
  rows.push(httpFloor());
}

/**
 * What node:http alone costs for the same requests (its own process, after the databases): the
 * floor under any HTTP job API here, which graphile-worker's add_job, a statement sent from the
 * same process, does not pay (docs/jobs.md, "Where our time goes").
 */
function httpFloor() {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(new URL('./httpFloor.ts', import.meta.url))], {
    input: JSON.stringify(lastCreate),
    env: { ...process.env, BENCH_JOBS: String(JOBS), BENCH_WARMUP: String(WARMUP) },
  });
  const floor = JSON.parse(out.toString()) as { cpu_ms_per_request: number; requests_per_s: number };
  return {
    database: 'none: node:http alone, the same requests (requests/s)',
    'jobs/s': floor.requests_per_s,
    'pickup p50 ms': '-',
    'pickup p99 ms': '-',
    'SSE sees it p50 ms': '-',
    'SSE sees it p99 ms': '-',
    'CPU ms/job': floor.cpu_ms_per_request,
    'PG CPU ms/job': '-',
    'loop busy %': '-',
  };
}
if (rows.length) console.table(rows);
for (const line of lines) console.log(line);
stopBackgroundLoad();
process.exit(0);
