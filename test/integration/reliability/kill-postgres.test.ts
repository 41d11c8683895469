import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../../reference-app/server/db';
import { rawApi } from '../helpers';
import { runner, untilFinal } from '../jobs/fixtures';
import { testPostgres, type TestPostgres } from '../jobs/postgres';
import { insertHttpService, postJson, recordLoad, restartablePort, type ServerProcess, slowService, spawnServer } from './fixtures';

// Two server processes on one PostgreSQL, each killed with `kill -9` under load and restarted
// (docs/jobs.md, "Retry rule" and "Delivered at least once"; docs/deploy.md, "Several
// processes"). Whatever was acknowledged (a 2xx) is kept: job creates with Idempotency-Key (a
// replay after the kills answers the same job), credit purchases, API keys. Every job ends as
// documented: FINISHED, its run handed to the other process once the lease (2 s here) ran out,
// or FAILED worker_lost (not charged) when both of its runs were lost. No hold stays open, and
// the ledger holds exactly one usage entry per charged job, of its cost.

const LEASE_SECONDS = 2;
/** Job creates under load (paced), enough to have runs in flight at each kill. */
const LOAD_JOBS = 60;

let pgServer: TestPostgres;
let service: Awaited<ReturnType<typeof slowService>>;
const secretKey = randomBytes(32).toString('hex');
const schema = `lime_kill_${randomBytes(5).toString('hex')}`;
const dataDirs: string[] = [];
const servers: (ServerProcess | undefined)[] = [];

beforeAll(async () => {
  pgServer = await testPostgres();
  if ('skip' in pgServer) return;
  service = await slowService(1_000); // long enough that runs are in flight at each kill
}, 60_000);

afterAll(async () => {
  for (const server of servers) server?.child.kill('SIGKILL');
  await service?.close();
  if (pgServer && !('skip' in pgServer)) {
    await dropSchema(pgServer.url, schema).catch(() => {});
    await pgServer.stop();
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Server process `n` (0 or 1) on its port (the same when restarted), with its own DATA_DIR. */
async function start(n: number, port: number, publicUrl: string): Promise<ServerProcess> {
  if (!('url' in pgServer)) throw new Error('no PostgreSQL');
  dataDirs[n] ??= mkdtempSync(path.join(tmpdir(), `lime-kill-${n}-`));
  servers[n] = await spawnServer(
    {
      DATABASE_URL: pgServer.url,
      DATABASE_SCHEMA: schema,
      DATA_DIR: dataDirs[n]!,
      // Processes sharing a database share the key (docs/deploy.md); without it each would make
      // its own in its DATA_DIR.
      LIMELIGHT_SECRET_KEY: secretKey,
      // One site: tokens name it as their issuer, and every process accepts the site's tokens.
      PUBLIC_URL: publicUrl,
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      JOB_WORKER_SLOTS: '8',
      RATE_LIMIT_JOBS: '0',
    },
    port,
  );
  return servers[n]!;
}

async function query<Row>(text: string, values: unknown[] = []): Promise<Row[]> {
  if (!('url' in pgServer)) throw new Error('no PostgreSQL');
  const client = new pg.Client({ connectionString: pgServer.url, options: `-c search_path="${schema}"` });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Row[];
  } finally {
    await client.end();
  }
}

describe('kill -9 of server processes sharing one PostgreSQL', () => {
  it('loses nothing acknowledged, replays idempotent creates, ends every job as documented, releases holds, keeps the ledger', async (ctx) => {
    if ('skip' in pgServer) {
      console.warn(`reliability: PostgreSQL tests skipped: ${pgServer.skip}`);
      return ctx.skip();
    }
    const ports = [await restartablePort(), await restartablePort()];
    const site = `http://127.0.0.1:${ports[0]}`;
    const first = await start(0, ports[0]!, site); // migrates the schema; the second process finds it done
    await start(1, ports[1]!, site);
    const user = await runner(first, 'kill-pg');
    const serviceId = await insertHttpService(pgServer.url, schema, user.userId, service.url);
    // Enterprise: 16 of the user's jobs run at once, so the queue drains in seconds after the kills.
    await query(
      `INSERT INTO subscriptions (user_id, plan_type, status, provider, cancel_at_period_end) VALUES ($1, 'enterprise', 'active', 'sandbox', false)`,
      [user.userId],
    );

    const created = new Map<string, string>(); // Idempotency-Key -> job id, acknowledged
    const purchases: string[] = []; // checkout ids, acknowledged
    const keys: string[] = []; // API key ids, acknowledged
    const traffic = recordLoad(6, async (i) => {
      const server = servers[i % 2]!;
      if (i % 3 === 0 && created.size < LOAD_JOBS) {
        await new Promise((r) => setTimeout(r, 150));
        const key = `kill-${randomBytes(6).toString('hex')}`;
        const response = await postJson(
          server,
          user.token,
          '/v1/jobs',
          { service_id: serviceId, input: { prompt: key } },
          { 'Idempotency-Key': key },
        );
        if (response.ok) created.set(key, String(((await response.clone().json()) as { job_id: string }).job_id));
        return { what: 'create', response };
      }
      if (i % 3 === 1 || keys.length >= 20) {
        const response = await postJson(server, user.token, '/v1/payment/buy_credit', { quantity: 1 });
        if (response.ok) purchases.push(String(((await response.clone().json()) as { id: string }).id));
        return { what: 'purchase', response };
      }
      const response = await postJson(server, user.token, '/v1/profile/create_api_key', {});
      if (response.ok) keys.push(String(((await response.clone().json()) as { id: string }).id));
      return { what: 'key', response };
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const timeline: string[] = [];
    const t0 = Date.now();
    const mark = (what: string) => timeline.push(`${what} ${Date.now() - t0} ms`);
    // Each process killed in turn while the other serves, then started again on its port.
    for (const n of [0, 1]) {
      await pause(2_000);
      servers[n]!.child.kill('SIGKILL');
      await servers[n]!.exited;
      mark(`killed ${n}`);
      await pause(1_000);
      await start(n, ports[n]!, site);
      mark(`restarted ${n}`);
    }
    await pause(1_500);
    await traffic.stop();
    const statuses: Record<string, number> = {};
    for (const a of traffic.answers) statuses[`${a.what} ${a.status}`] = (statuses[`${a.what} ${a.status}`] ?? 0) + 1;
    console.info(`reliability: kill -9 answers ${JSON.stringify(statuses)}`);

    // Acknowledged creates replayed with the same key and body: the same job, marked replayed.
    for (const [key, jobId] of created) {
      const replay = await postJson(
        servers[1]!,
        user.token,
        '/v1/jobs',
        { service_id: serviceId, input: { prompt: key } },
        { 'Idempotency-Key': key },
      );
      expect([replay.status, replay.headers.get('idempotent-replayed'), ((await replay.json()) as { job_id: string }).job_id]).toEqual([
        200,
        'true',
        jobId,
      ]);
    }
    // Every job of the user's (acknowledged or not: a create may commit as its process dies) ends.
    const stored = await query<{ id: string }>(`SELECT id FROM jobs WHERE user_id = $1`, [user.userId]);
    const storedIds = new Set(stored.map((j) => j.id));
    expect([...created.values()].filter((id) => !storedIds.has(id))).toEqual([]);
    const ended = await Promise.all(stored.map((j) => untilFinal(servers[j.id.charCodeAt(0) % 2]!, user.token, j.id, 1_200)));
    const unexpected = ended.filter(
      (job) => !(job.status === 'FINISHED' || (job.status === 'FAILED' && job.error?.code === 'worker_lost')),
    );
    expect(unexpected.map((job) => [job.job_id, job.status, job.error])).toEqual([]);
    const lost = ended.filter((job) => job.status === 'FAILED');
    // worker_lost means both runs were lost: the job was in flight at both kills.
    for (const job of lost) expect(service.deliveries.get(job.job_id) ?? 0).toBeLessThanOrEqual(2);

    // No hold left open.
    const holds = await rawApi(servers[0]!, 'GET', '/v1/jobs/holds', { token: user.token });
    expect(holds.json).toMatchObject({ reserved: 0, holds: [] });
    // The ledger: one usage entry per charged job, of its cost; none for a worker_lost job.
    const usage = await query<{ reference: string; amount: string }>(
      `SELECT reference, amount FROM credit_ledger WHERE user_id = $1 AND kind = 'usage'`,
      [user.userId],
    );
    const charged = new Map(usage.map((u) => [u.reference, -Number(u.amount)]));
    expect(usage.length).toBe(charged.size);
    const wrongCharges = ended.filter((job) => (charged.get(`job:${job.job_id}`) ?? 0) !== (job.metrics.cost_credits ?? 0));
    expect(wrongCharges.map((job) => [job.job_id, job.status, job.metrics.cost_credits, charged.get(`job:${job.job_id}`)])).toEqual([]);
    expect(usage.length).toBe(ended.filter((job) => (job.metrics.cost_credits ?? 0) > 0).length);
    // Purchases and keys acknowledged are all stored; the kept balance is the ledger's sum.
    const bought = await query<{ reference: string }>(`SELECT reference FROM credit_ledger WHERE user_id = $1 AND kind = 'purchase'`, [
      user.userId,
    ]);
    expect(purchases.filter((id) => !bought.some((b) => b.reference?.includes(id)))).toEqual([]);
    const listed = await rawApi(servers[1]!, 'GET', '/v1/profile/api_keys', { token: user.token });
    const listedIds = new Set((listed.json as unknown as { id: string }[]).map((k) => k.id));
    expect(keys.filter((id) => !listedIds.has(id))).toEqual([]);
    const [balance] = await query<{ kept: string; summed: string }>(
      `SELECT (SELECT balance FROM credit_balances WHERE user_id = $1) AS kept, (SELECT sum(amount) FROM credit_ledger WHERE user_id = $1) AS summed`,
      [user.userId],
    );
    expect(Number(balance!.kept)).toBeCloseTo(Number(balance!.summed), 4);

    const twice = ended.filter((job) => (service.deliveries.get(job.job_id) ?? 0) > 1).length;
    console.info(
      `reliability: kill -9 x2 (${timeline.join(', ')}); acknowledged ${created.size} creates (${created.size} replayed alike), ` +
        `${purchases.length} purchases, ${keys.length} keys, all kept; ${ended.length} jobs: ` +
        `${ended.length - lost.length} FINISHED, ${lost.length} worker_lost, ${twice} delivered twice; holds 0; ` +
        `${usage.length} usage entries = charged jobs; ${traffic.failures.length} requests unanswered (process down)`,
    );
  }, 240_000);
});
