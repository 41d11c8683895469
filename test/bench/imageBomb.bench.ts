// Image bombs against a running platform (docs/security.md, "Limits"):
//   node --conditions=source --import tsx test/bench/imageBomb.bench.ts
// Uploads a 12 KB PNG declaring 10000×10000 and a 35-byte GIF declaring 16000×16000 as a card image
// while another client asks for /config.json back to back, and reports per bomb: the answer and
// how long it took, the longest /config.json round trip meanwhile (how long the server froze) and
// the growth of the server process's resident memory. BENCH_ROOT=/path/to/another/checkout runs the
// same against that checkout's server code (how the "before" figures of issue 19 were measured).
// It measures and never fails on timings.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gifBomb, pngBomb } from '../fixtures/imageBombs';
import type * as TestingModule from '../../reference-app/server/testing';

type Testing = typeof TestingModule;
const root = process.env.BENCH_ROOT ?? path.resolve(import.meta.dirname, '../..');
const { startPlatformServer } = (await import(pathToFileURL(path.join(root, 'reference-app/server/testing.ts')).href)) as Testing;

const server = await startPlatformServer({ env: { MAILER_AUTOCONFIRM: 'true' } });
try {
  const signup = await fetch(`${server.url}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: server.authKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `bomb-${Date.now()}@example.test`, password: 'bench-password' }),
  });
  const { access_token: token } = (await signup.json()) as { access_token: string };
  const auth = { Authorization: `Bearer ${token}` };
  const created = await fetch(`${server.url}/v1/model_management/services`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ display_name: `Bomb target ${Date.now()}`, visibility: 'public' }),
  });
  const { id } = (await created.json()) as { id: string };

  const rows: string[] = [];
  for (const [name, bytes, type] of [
    ['PNG 10000×10000 (12 KB)', pngBomb(10_000, 10_000), 'image/png'],
    ['GIF 16000×16000 (35 B)', gifBomb(16_000, 16_000), 'image/gif'],
  ] as const) {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let worst = 0;
    let done = false;
    const pinger = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${server.url}/config.json`)).arrayBuffer();
        worst = Math.max(worst, performance.now() - started);
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const form = new FormData();
    form.append('file', new Blob([bytes.slice()], { type }), 'card');
    const started = performance.now();
    const response = await fetch(`${server.url}/v1/model_management/services/${id}/image`, { method: 'POST', headers: auth, body: form });
    const answer = `${response.status} ${((await response.json()) as { detail?: string }).detail?.slice(0, 60) ?? ''}`;
    const took = performance.now() - started;
    done = true;
    await pinger;
    rows.push(
      `| ${name} | ${answer} | ${(took / 1000).toFixed(2)} s | ${worst.toFixed(0)} ms | +${((rssPeak - rssBefore) / 1024 / 1024).toFixed(0)} MB |`,
    );
  }
  console.log(`server code: ${root}\n`);
  console.log('| Bomb | Answer | Took | Longest /config.json meanwhile | RSS growth |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await server.close();
}
