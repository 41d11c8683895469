// Open job streams under load, on PGlite (`npm run bench streams`):
//   node --conditions=source --import tsx test/bench/streams.bench.ts
// BENCH_STREAMS (default 500) streams stay open on jobs that wait in the queue or run until the
// end, while BENCH_CREATES_PER_S (default 50) jobs a second are created for BENCH_SECONDS
// (default 10) by another user and run by a no-op runtime. The server runs in this thread; the
// clients (streams and creates) run in a child process, so the event-loop delay measured here
// (monitorEventLoopDelay, during the creates) is the server's alone. Prints one JSON line:
// loop delay p99/max, create latency p50/p99/max, creates that failed or took over 10 s, and the
// streams still open at the end (docs/jobs.md, "Streaming"). It measures and never fails on timings.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Runtime } from '../../reference-app/server/runtimes/runtime';
import { startPlatformServer } from '../../reference-app/server/testing';
import { runner } from '../integration/jobs/fixtures';
import http from 'node:http';
import { atATime, textOf } from './benchLoad';
import { percentile } from './jobsGraphile';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 500);
const CREATES_PER_S = Number(process.env.BENCH_CREATES_PER_S ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** BENCH_OPEN_STREAMS=0: the same jobs and creates without the streams, to tell their cost apart. */
const OPEN_STREAMS = process.env.BENCH_OPEN_STREAMS !== '0';
const SERVICE = 'lime-diffusion-xl';
/** A create slower than this counts as timed out (the "creates time out"). */
const CREATE_TIMEOUT_MS = 10_000;

interface LoadOrders {
  url: string;
  streamsToken: string;
  createsToken: string;
  jobIds: string[];
}
interface LoadReport {
  opened: number;
  openAtEnd: number;
  createMs: number[];
  createFailures: number;
}

/**
 * Requests on a connection pool without a cap: the shared bench agent's 16 sockets would queue
 * 500 streams (and the creates behind them) in this client instead of at the server.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
function request(url: URL, token: string, method: string, body?: string) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    http.request(url, { method, headers, agent }, resolve).on('error', reject).end(body);
  });
}

/** The clients: one stream per job id, then paced creates; answers what they saw. */
async function clients({ url, streamsToken, createsToken, jobIds }: LoadOrders, measuring: (on: boolean) => void): Promise<LoadReport> {
  let openAtEnd = 0;
  const streams = await Promise.all(
    (OPEN_STREAMS ? jobIds : []).map(async (id) => {
      const response = await request(new URL(`/v1/jobs/${id}/stream`, url), streamsToken, 'GET');
      if (response.statusCode !== 200) throw new Error(`stream answered ${response.statusCode}: ${await textOf(response)}`);
      openAtEnd++;
      response.on('close', () => openAtEnd--);
      response.resume();
      return response;
    }),
  );
  const createMs: number[] = [];
  let createFailures = 0;
  measuring(true);
  const started = Date.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < CREATES_PER_S * SECONDS; i++) {
    const due = started + (i * 1000) / CREATES_PER_S;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const t0 = Date.now();
    const body = JSON.stringify({ service_id: SERVICE, input: { prompt: `quick ${i}` } });
    sent.push(
      request(new URL('/v1/jobs', url), createsToken, 'POST', body)
        .then(async (response) => {
          await textOf(response);
          if (response.statusCode !== 201 || Date.now() - t0 > CREATE_TIMEOUT_MS) createFailures++;
          createMs.push(Date.now() - t0);
        })
        .catch(() => void createFailures++),
    );
  }
  await Promise.all(sent);
  measuring(false);
  const report = { opened: streams.length, openAtEnd, createMs, createFailures };
  for (const stream of streams) stream.destroy();
  return report;
}

if (process.argv[2] === 'clients') {
  process.once('message', (orders: LoadOrders) => {
    void clients(orders, (on) => process.send!({ measuring: on })).then(
      (report) => process.send!({ report }, () => process.exit(0)),
      (error: Error) => process.send!({ error: error.stack ?? String(error) }, () => process.exit(1)),
    );
  });
} else {
  await main();
}

async function main() {
  // The stream jobs wait (queued, or running until the bench ends); the creates finish at once.
  let release!: () => void;
  const ended = new Promise<void>((resolve) => (release = resolve));
  const runtime: Runtime = {
    name: 'bench',
    run: async (input, ctx) => {
      if (String(input.prompt).startsWith('hold'))
        await Promise.race([ended, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }))]);
      return { echo: input.prompt };
    },
  };
  const server = await startPlatformServer({
    runtimes: () => runtime,
    env: {
      JOB_WORKER_SLOTS: '16',
      MAX_JOB_STREAMS_PER_USER: '0',
      RATE_LIMIT_SIGN_IN: '0',
      RATE_LIMIT_SIGN_UP: '0',
      RATE_LIMIT_JOBS: String(10 * (STREAMS + CREATES_PER_S * SECONDS)),
    },
  });
  try {
    const db = server.platform.database.db;
    const [streamsUser, createsUser] = [await runner(server, 'bench-streams'), await runner(server, 'bench-creates')];
    for (const user of [streamsUser, createsUser])
      await db
        .insertInto('credit_ledger')
        .values({ user_id: user.userId, amount: 1_000_000, kind: 'adjustment', description: 'bench credits' })
        .execute();
    // The creating user runs 16 jobs at once (enterprise), so its queue is not what is measured.
    await db
      .insertInto('subscriptions')
      .values({
        user_id: createsUser.userId,
        plan_type: 'enterprise',
        status: 'active',
        provider: 'sandbox',
        cancel_at_period_end: false,
        current_period_end: null,
      })
      .execute();
    const jobIds: string[] = [];
    await atATime(STREAMS, 10, async (i) => {
      const body = JSON.stringify({ service_id: SERVICE, input: { prompt: `hold ${i}` } });
      const response = await request(new URL('/v1/jobs', server.url), streamsUser.token, 'POST', body);
      const text = await textOf(response);
      if (response.statusCode !== 201) throw new Error(`create answered ${response.statusCode}: ${text}`);
      jobIds.push((JSON.parse(text) as { job_id: string }).job_id);
    });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const report = await new Promise<LoadReport>((resolve, reject) => {
      const worker = fork(fileURLToPath(import.meta.url), ['clients']);
      worker.send({ url: server.url, streamsToken: streamsUser.token, createsToken: createsUser.token, jobIds } satisfies LoadOrders);
      worker.on('message', (message: { measuring?: boolean; report?: LoadReport; error?: string }) => {
        if (message.measuring === true) delay.enable();
        if (message.measuring === false) delay.disable();
        if (message.report) resolve(message.report);
        if (message.error) reject(new Error(message.error));
      });
      worker.on('error', reject);
    });
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    const round = (value: number) => Math.round(value * 10) / 10;
    console.log(
      JSON.stringify({
        bench: 'streams',
        database: 'PGlite',
        streams: report.opened,
        streams_open_at_end: report.openAtEnd,
        creates: report.createMs.length,
        creates_per_s: CREATES_PER_S,
        loop_delay_p99_ms: ms(delay.percentile(99)),
        loop_delay_max_ms: ms(delay.max),
        create_p50_ms: round(percentile(report.createMs, 0.5)),
        create_p99_ms: round(percentile(report.createMs, 0.99)),
        create_max_ms: Math.max(0, ...report.createMs),
        creates_failed_or_over_10s: report.createFailures,
      }),
    );
  } finally {
    release();
    await server.close();
  }
}
