// Platform server throughput against a bare node:http server (docs/deploy.md, "Throughput"):
//   npm run bench server
// One run, one process tree: the platform server (the production build in dist/server, or the
// sources with BENCH_SERVER=source) and test/bench/serverBare.mjs run as child processes, and
// autocannon drives both from here, so they share the machine's conditions. Each catalogue
// route is measured on both and the ratio printed. With DATABASE_URL the platform runs on that
// PostgreSQL (a fresh schema, dropped after), and BENCH_WORKERS (default "1", e.g. "1,2")
// lists the WORKERS counts to measure. It measures and never fails on timings.
// BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 10) set each case's run.
import autocannon from 'autocannon';
import { launchBareServer, launchPlatformServer, type Launched } from './serverLaunch';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const workerCounts = (process.env.BENCH_WORKERS ?? '1').split(',').map(Number);

interface Case {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** Compared with the bare server: goal of docs/deploy.md (fraction of bare req/s). */
  goal?: number;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string> | undefined): Promise<Measured> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function signIn(base: string): Promise<string> {
  const { authKey } = (await (await fetch(`${base}/config.json`)).json()) as { authKey: string };
  const response = await fetch(`${base}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'publisher@limelight.dev', password: 'limelight-publisher' }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
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

async function benchWorkers(workers: number, bareRps: Map<string, Measured> | undefined) {
  let platform: Launched | undefined;
  let bare: Launched | undefined;
  try {
    platform = await launchPlatformServer({ workers });
    const token = await signIn(platform.url);
    const cases = catalogueCases(token);
    const measuredBare = bareRps ?? new Map<string, Measured>();
    if (!bareRps) {
      bare = await launchBareServer(await recordAnswers(platform.url, cases));
      for (const c of cases) measuredBare.set(c.name, await measure(`${bare.url}${c.path}`, c.headers));
      await bare.close();
      bare = undefined;
    }
    const rows = [];
    for (const c of cases) {
      const p = await measure(`${platform.url}${c.path}`, c.headers);
      const b = measuredBare.get(c.name)!;
      const ratio = p.rps / b.rps;
      rows.push({
        route: c.name,
        'platform req/s': p.rps,
        'bare req/s': b.rps,
        ratio: pct(ratio),
        goal: c.goal ? `≥ ${pct(c.goal)}` : '',
        met: c.goal ? (ratio >= c.goal && p.p99 < 20 ? 'yes' : 'NO') : '',
        'p50 ms': p.p50,
        'p99 ms': p.p99,
        'non-2xx': p.non2xx,
        errors: p.errors,
      });
    }
    console.log(
      `\nplatform (${platform.kind}, WORKERS=${workers}) vs bare node:http, ${connections} connections, ${seconds} s per case; goals also need p99 < 20 ms`,
    );
    console.table(rows);
    return measuredBare;
  } finally {
    await bare?.close();
    await platform?.close();
  }
}

let bare: Map<string, Measured> | undefined;
for (const workers of workerCounts) bare = await benchWorkers(workers, bare);
