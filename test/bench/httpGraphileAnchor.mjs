// The HTTP anchor of the jobs bench (docs/jobs.md, "Speed"): what a team would build instead of
// our job API, a Replicate-style HTTP job API on graphile-worker, measured with the same work and
// the same load shape as `npm run bench jobs` (300 no-op jobs, 10 requests in flight, 16 worker
// slots; then 50 sequential submit -> task-start pickups), client, API and worker in one process.
// jobs.bench.ts runs it in a process of its own on the same PostgreSQL and prints its figures
// beside ours; keep its logic as it is, or the comparison stops being the one the docs state.
//
// What each job does, so the semantics match ours (a readable job row with its status, an API
// key, credits checked on create and charged at the end):
//   POST /v1/jobs  bearer API key (sha256 lookup, cached 5 s like our token check),
//                  JSON body with service_id/input validated, one statement: balance check +
//                  insert into predictions + graphile_worker.add_job; answers 201 {id,status}.
//   worker task    one statement marks it processing, the no-op runs, one statement marks it
//                  succeeded and debits the balance.
// Usage: DATABASE_URL=postgres://... node test/bench/httpGraphileAnchor.mjs   (prints one JSON line)
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { run, quickAddJob, Logger } from 'graphile-worker';
const logger = new Logger(() => () => {});

const connectionString = process.env.DATABASE_URL;
const JOBS = Number(process.env.BENCH_JOBS ?? 300),
  WARMUP = Number(process.env.BENCH_WARMUP ?? 100);
const SEQ = Number(process.env.BENCH_STREAMS ?? 50);
const pool = new pg.Pool({ connectionString, max: 20 });
await pool.query(`drop schema if exists anchor cascade; create schema anchor;
  create table anchor.api_keys (hash text primary key, user_id uuid not null);
  create table anchor.balances (user_id uuid primary key, credits numeric not null);
  create table anchor.predictions (id uuid primary key, user_id uuid not null, service_id text not null,
    status text not null, input jsonb not null, output jsonb, created_at timestamptz not null default now(),
    started_at timestamptz, finished_at timestamptz);
  create index on anchor.predictions (user_id, created_at desc);`);
const user = randomUUID(),
  key = 'lime_' + randomUUID().replaceAll('-', '');
const sha = (s) => createHash('sha256').update(s).digest('hex');
await pool.query('insert into anchor.api_keys values ($1, $2)', [sha(key), user]);
await pool.query('insert into anchor.balances values ($1, 1000000)', [user]);
// graphile-worker's schema first, so add_job exists
await quickAddJob({ connectionString, logger }, 'noop', { warm: true }).catch(() => {});

const keyCache = new Map(); // hash -> { user, until }
async function authenticate(req) {
  const h = req.headers.authorization ?? '';
  if (!h.startsWith('Bearer ')) return null;
  const hash = sha(h.slice(7));
  const hit = keyCache.get(hash);
  if (hit && hit.until > Date.now()) return hit.user;
  const r = await pool.query('select user_id from anchor.api_keys where hash = $1', [hash]);
  if (!r.rows[0]) return null;
  keyCache.set(hash, { user: r.rows[0].user_id, until: Date.now() + 5000 });
  return r.rows[0].user_id;
}
const send = (res, status, body) => {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
  res.end(s);
};
const INSERT = {
  name: 'anchor_create',
  text: `with ok as (select 1 from anchor.balances where user_id = $2 and credits >= 0.01),
    p as (insert into anchor.predictions (id, user_id, service_id, status, input)
          select $1, $2, $3, 'starting', $4 from ok returning id)
    select p.id, graphile_worker.add_job('noop', json_build_object('id', p.id, 't0', $5::float8)) is not null as queued from p`,
};
const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/v1/jobs') return send(res, 404, { detail: 'not found' });
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => {
    body += c;
    if (body.length > 1 << 20) req.destroy();
  });
  req.on('end', async () => {
    try {
      const t0 = performance.now();
      const u = await authenticate(req);
      if (!u) return send(res, 401, { detail: 'unauthorized' });
      let j;
      try {
        j = JSON.parse(body);
      } catch {
        return send(res, 400, { detail: 'invalid JSON' });
      }
      if (
        typeof j?.service_id !== 'string' ||
        typeof j?.input !== 'object' ||
        j.input === null ||
        typeof j.input.prompt !== 'string' ||
        j.input.prompt.length > 10000
      )
        return send(res, 422, { detail: 'invalid input' });
      const id = randomUUID();
      const r = await pool.query({ ...INSERT, values: [id, u, j.service_id, j.input, j.t0 ?? t0] });
      if (!r.rows[0]) return send(res, 402, { detail: 'not enough credits' });
      send(res, 201, { id, status: 'starting' });
    } catch (e) {
      send(res, 500, { detail: String(e.message) });
    }
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;

let done = 0;
const started = new Map();
const runner = await run({
  connectionString,
  logger,
  concurrency: 16,
  maxPoolSize: 20,
  noHandleSignals: true,
  pollInterval: 1000,
  taskList: {
    noop: async (p, helpers) => {
      if (p.warm) return;
      if (p.t0 !== undefined) started.set(p.id, performance.now() - p.t0);
      await helpers.query(`update anchor.predictions set status = 'processing', started_at = now() where id = $1`, [p.id]);
      await helpers.query(
        `with f as (update anchor.predictions set status = 'succeeded', finished_at = now(), output = '{"ok":true}'
          where id = $1 returning user_id) update anchor.balances b set credits = credits - 0.0001 from f where b.user_id = f.user_id`,
        [p.id],
      );
      done++;
    },
  },
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const post = (bodyObj) =>
  new Promise((resolve, reject) => {
    const s = JSON.stringify(bodyObj);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/v1/jobs',
        method: 'POST',
        agent,
        headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) },
      },
      (res) => {
        let b = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (b += c));
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(b)) : reject(new Error(res.statusCode + ' ' + b))));
      },
    );
    req.on('error', reject);
    req.end(s);
  });
async function burst(n) {
  const target = done + n;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < n) {
        next++;
        await post({ service_id: 'noop', input: { prompt: 'hello' } });
      }
    }),
  );
  while (done < target) await new Promise((r) => setTimeout(r, 1));
  return n / ((performance.now() - t0) / 1000);
}
await burst(WARMUP);
const cpu0 = process.cpuUsage();
const jps = await burst(JOBS);
const cpu = process.cpuUsage(cpu0);
const lat = [];
for (let i = 0; i < SEQ; i++) {
  const t0 = performance.now();
  const { id } = await post({ service_id: 'noop', input: { prompt: 'seq ' + i }, t0 });
  while (!started.has(id)) await new Promise((r) => setImmediate(r));
  lat.push(started.get(id));
}
lat.sort((a, b) => a - b);
const q = (x) => +lat[Math.min(lat.length - 1, Math.ceil(x * lat.length) - 1)].toFixed(1);
const rows = (await pool.query(`select count(*)::int n from anchor.predictions where status = 'succeeded'`)).rows[0].n;
console.log(
  JSON.stringify({
    bench: 'http-graphile-anchor',
    jobs_per_s: Math.round(jps),
    pickup_p50_ms: q(0.5),
    pickup_p99_ms: q(0.99),
    cpu_ms_per_job: +((cpu.user + cpu.system) / 1000 / JOBS).toFixed(2),
    succeeded_rows: rows,
    load: (await import('node:os')).loadavg()[0].toFixed(2),
  }),
);
await runner.stop();
server.close();
agent.destroy();
await pool.end();
