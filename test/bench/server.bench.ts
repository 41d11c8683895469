// Platform server throughput over loopback, measured with autocannon (issue 3):
//   node --conditions=source --import tsx test/bench/server.bench.ts
// Each case runs BENCH_SECONDS (default 10) with BENCH_CONNECTIONS (default 10) connections
// against a throw-away server (PGlite, or DATABASE_URL), rate limits off. Prints requests per
// second and latency percentiles; it measures and never fails on timings.
import autocannon from 'autocannon';
import { startPlatformServer } from '../../reference-app/server/testing';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Case {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

async function measure(base: string, c: Case) {
  const result = await autocannon({
    url: `${base}${c.path}`,
    method: c.method,
    headers: c.headers,
    body: c.body,
    connections,
    duration: seconds,
  });
  return {
    case: c.name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    '2xx': result['2xx'],
    'non-2xx': result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const server = await startPlatformServer({
  env: { RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_TOKEN_REFRESH: '0', LOG_REQUESTS: 'false' },
});
try {
  const signIn = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: server.authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'publisher@limelight.dev', password: 'limelight-publisher' }),
  });
  const { access_token: token } = (await signIn.json()) as { access_token: string };

  const cases: Case[] = [
    { name: 'GET model_descriptors (anonymous)', method: 'GET', path: '/v1/model_management/model_descriptors' },
    {
      name: 'GET model_descriptors (signed in)',
      method: 'GET',
      path: '/v1/model_management/model_descriptors',
      headers: { Authorization: `Bearer ${token}` },
    },
    {
      name: 'POST sign-in (password, argon2id)',
      method: 'POST',
      path: '/auth/v1/token?grant_type=password',
      headers: { apikey: server.authKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'demo@limelight.dev', password: 'limelight-demo' }),
    },
  ];
  const rows = [];
  for (const c of cases) rows.push(await measure(server.url, c));
  console.log(`platform server, ${connections} connections, ${seconds} s per case, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`);
  console.table(rows);
} finally {
  await server.close();
}
