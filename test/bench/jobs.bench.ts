// Job queue benchmarks (issue 12), on PGlite and, when available, PostgreSQL:
//   node --conditions=source --import tsx test/bench/jobs.bench.ts
// - jobs/s: BENCH_JOBS (default 300) jobs submitted through POST /v1/jobs (10 at a time) and run
//   by a no-op runtime, from the first submit until the last one is FINISHED;
// - submit -> first SSE event, and submit -> first event past QUEUED (the queue's pickup),
//   p50/p99 over BENCH_STREAMS (default 50) sequential jobs.
// The bench user gets the enterprise plan (16 concurrent jobs) and the server 16 worker slots,
// so the plan limit is not what is measured. It measures and never fails on timings.
import type { Runtime } from '../../reference-app/server/runtimes/runtime';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import { testPostgres } from '../integration/jobs/postgres';

const JOBS = Number(process.env.BENCH_JOBS ?? 300);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 50);
const SERVICE = 'lime-diffusion-xl';

const noop: Runtime = { name: 'noop', run: async (input) => ({ echo: input.prompt }) };

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

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
  return session.access_token;
}

const submit = (server: PlatformTestServer, token: string, prompt: string) =>
  fetch(`${server.url}/v1/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ service_id: SERVICE, input: { prompt } }),
  }).then(async (r) => {
    if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
    return (await r.json()) as { job_id: string };
  });

async function throughput(server: PlatformTestServer, token: string): Promise<number> {
  const db = server.platform.database.db;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < JOBS) await submit(server, token, `job ${next++}`);
    }),
  );
  for (;;) {
    const row = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'FINISHED')
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= JOBS) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  return JOBS / ((performance.now() - started) / 1000);
}

async function streamLatency(server: PlatformTestServer, token: string) {
  const first: number[] = [];
  const pickup: number[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const t0 = performance.now();
    const { job_id } = await submit(server, token, `stream ${i}`);
    const response = await fetch(`${server.url}/v1/jobs/${job_id}/stream`, { headers: { Authorization: `Bearer ${token}` } });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let gotFirst = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      if (!gotFirst && buffer.includes('event: job')) {
        first.push(performance.now() - t0);
        gotFirst = true;
      }
      if (/"status":"(PROCESSING|FINISHED)"/.test(buffer)) {
        pickup.push(performance.now() - t0);
        await reader.cancel();
        break;
      }
    }
  }
  return { first, pickup };
}

async function run(label: string, server: PlatformTestServer) {
  try {
    const token = await benchUser(server);
    await submit(server, token, 'warm-up');
    const jobsPerSecond = await throughput(server, token);
    const { first, pickup } = await streamLatency(server, token);
    return {
      database: label,
      'jobs/s': Math.round(jobsPerSecond),
      'first SSE p50 ms': Math.round(percentile(first, 0.5)),
      'first SSE p99 ms': Math.round(percentile(first, 0.99)),
      'pickup p50 ms': Math.round(percentile(pickup, 0.5)),
      'pickup p99 ms': Math.round(percentile(pickup, 0.99)),
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
};
const rows = [await run('PGlite', await startPlatformServer({ runtimes: () => noop, env, databaseUrl: '' }))];
const pg = await testPostgres();
if ('skip' in pg) console.log(`PostgreSQL skipped: ${pg.skip}`);
else {
  try {
    rows.push(await run('PostgreSQL', await startPlatformServer({ runtimes: () => noop, env, databaseUrl: pg.url })));
  } finally {
    await pg.stop();
  }
}
console.table(rows);
process.exit(0);
