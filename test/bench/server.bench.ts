// Platform server throughput against a bare node:http server (docs/deploy.md, "Throughput"):
//   npm run bench server
// One run, one process tree: the platform server (the production build in dist/server, or the
// sources with BENCH_SERVER=source) and test/bench/serverBare.mjs run as child processes, and
// autocannon drives both from here, so they share the machine's conditions. Each catalogue
// route is measured on both and the ratio printed. With DATABASE_URL the platform runs on that
// PostgreSQL (a fresh schema, dropped after), and BENCH_WORKERS (default "1", e.g. "1,2")
// lists the WORKERS counts to measure. It measures and never fails on timings.
// Each case alternates bare and platform BENCH_ROUNDS times (default 3) for BENCH_SECONDS each
// (default 5) with BENCH_CONNECTIONS (default 10), and reports medians: on a shared machine the
// load moves, and alternating exposes both servers to the same conditions. On Linux it also
// reports each server's CPU time per request (from /proc), which other load on the machine
// barely moves: "CPU ratio" (bare's CPU per request over the platform's) is what the req/s
// ratio tends to on an idle machine. BENCH_ONLY=<text>
// keeps the routes whose name contains it. BENCH_CPU_PROF=<dir> profiles the platform server
// (see serverLaunch.ts); test/bench/profileSummary.mjs reads the profiles.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { cpuSeconds, launchBareServer, launchPlatformServer, type Launched } from './serverLaunch';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const workerCounts = (process.env.BENCH_WORKERS ?? '1').split(',').map(Number);
const only = process.env.BENCH_ONLY;

interface Case {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** Compared with the bare server: goal of docs/deploy.md (fraction of bare req/s). */
  goal?: number;
}

interface Measured {
  rps: number;
  /** The server's CPU time per request in microseconds (Linux), or NaN. */
  cpu: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(server: Launched, path: string, headers: Record<string, string> | undefined): Promise<Measured> {
  const before = cpuSeconds(server.pid);
  const result = await autocannon({ url: `${server.url}${path}`, headers, connections, duration: seconds });
  const after = cpuSeconds(server.pid);
  return {
    rps: Math.round(result.requests.average),
    cpu: before === undefined || after === undefined ? NaN : ((after - before) * 1e6) / result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * A signed-in bench user. Production seeds no passwords (seed/users.ts), so the bench signs a
 * new account up; serverLaunch.ts sets MAILER_AUTOCONFIRM so the answer carries a session.
 */
async function signIn(base: string): Promise<string> {
  const { authKey } = (await (await fetch(`${base}/config.json`)).json()) as { authKey: string };
  const response = await fetch(`${base}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'limelight-bench-password' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

const SKIPPED_HEADERS = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

/** What the platform answers on each case, for the bare server to repeat byte for byte. */
async function recordAnswers(base: string, cases: Case[]) {
  const routes: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
  for (const c of cases) {
    const response = await fetch(`${base}${c.path}`, { headers: { ...c.headers, 'Accept-Encoding': 'identity' } });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      if (!SKIPPED_HEADERS.has(key)) headers[key] = value;
    });
    const body = Buffer.from(await response.arrayBuffer());
    routes[`${c.path} ${c.headers?.authorization ?? ''}`] = { status: response.status, headers, body: body.toString('base64') };
  }
  return routes;
}

function catalogueCases(token: string): Case[] {
  const signedIn = { authorization: `Bearer ${token}` };
  return [
    { name: 'model_categories (anonymous)', path: '/v1/model_management/model_categories', goal: 0.5 },
    { name: 'model_descriptors (anonymous)', path: '/v1/model_management/model_descriptors', goal: 0.5 },
    { name: 'model_descriptors (signed in)', path: '/v1/model_management/model_descriptors', headers: signedIn, goal: 0.3 },
    { name: 'pricing_servers (anonymous)', path: '/v1/model_management/pricing_servers', goal: 0.5 },
    { name: 'model_pricing_table (anonymous)', path: '/v1/model_management/model_pricing_table', goal: 0.5 },
    { name: 'plans (anonymous)', path: '/v1/payment/plans', goal: 0.5 },
    { name: 'home page HTML', path: '/' },
  ];
}

const pct = (x: number) => `${Math.round(x * 100)} %`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function alternate(platformServer: Launched, bareServer: Launched, c: Case) {
  const platform: Measured[] = [];
  const bare: Measured[] = [];
  for (let round = 0; round < rounds; round++) {
    bare.push(await measure(bareServer, c.path, c.headers));
    platform.push(await measure(platformServer, c.path, c.headers));
  }
  const pick = (list: Measured[]) => ({
    rps: median(list.map((m) => m.rps)),
    cpu: median(list.map((m) => m.cpu)),
    p50: median(list.map((m) => m.p50)),
    p99: median(list.map((m) => m.p99)),
    non2xx: list.reduce((sum, m) => sum + m.non2xx, 0),
    errors: list.reduce((sum, m) => sum + m.errors, 0),
    ratio: median(list.map((m, i) => m.rps / bare[i]!.rps)),
  });
  return { platform: pick(platform), bare: pick(bare) };
}

async function benchWorkers(workers: number) {
  let platform: Launched | undefined;
  let bare: Launched | undefined;
  try {
    platform = await launchPlatformServer({ workers });
    const token = await signIn(platform.url);
    const cases = catalogueCases(token).filter((c) => !only || c.name.includes(only));
    bare = await launchBareServer(await recordAnswers(platform.url, cases));
    const rows = [];
    for (const c of cases) {
      const { platform: p, bare: b } = await alternate(platform, bare, c);
      rows.push({
        route: c.name,
        'platform req/s': p.rps,
        'bare req/s': b.rps,
        ratio: pct(p.ratio),
        goal: c.goal ? `≥ ${pct(c.goal)}` : '',
        met: c.goal ? (p.ratio >= c.goal && p.p99 < 20 ? 'yes' : 'NO') : '',
        'CPU µs/req': Math.round(p.cpu),
        'bare CPU µs/req': Math.round(b.cpu),
        'CPU ratio': pct(b.cpu / p.cpu),
        'p50 ms': p.p50,
        'p99 ms': p.p99,
        'non-2xx': p.non2xx,
        errors: p.errors,
      });
    }
    console.log(
      `\nplatform (${platform.kind}, WORKERS=${workers}) vs bare node:http (one process), ${connections} connections, median of ${rounds} alternating ${seconds} s runs; goals also need p99 < 20 ms; load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.table(rows);
  } finally {
    await bare?.close();
    await platform?.close();
  }
}

for (const workers of workerCounts) await benchWorkers(workers);
