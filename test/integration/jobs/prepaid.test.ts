import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api';
import { PUBLISHER_SHARE } from '@limelight/rules';
import { creditsForRun } from '../../../src/run';
import { holdFor } from '../../../reference-app/server/jobs';
import { createHttpRuntime, type Runtime } from '../../../reference-app/server/runtimes';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import type { RuntimeChooser } from '../../../reference-app/server/hosting';
import { PUBLISHER_ID, rawApi, type Target } from '../helpers';
import { balanceMismatches, httpServiceOf, runner, testRuntime, TEXT2IMG, untilFinal } from './fixtures';

// Prepaid, fair and prompt jobs (docs/jobs.md: holds, charging, fairness, webhooks, result
// sizes) against real platform servers on PGlite: holds are atomic against the available
// balance, a run never costs more than its hold, publishers earn from collected credits only,
// one user's backlog or slow HTTP services cannot starve another user, slow webhook receivers
// do not hold claims, large results do not break the list, and no notification is lost.

const servers: PlatformTestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startPlatformServer>[0]) {
  const server = await startPlatformServer(options);
  servers.push(server);
  return server;
}

/** The test runtime, except that the prompt "big" answers a 50 MB result. */
const bigOrTest: Runtime = {
  name: 'test',
  run: async (input, ctx) => (input.prompt === 'big' ? { blob: 'x'.repeat(50 * 1024 * 1024) } : testRuntime.run(input, ctx)),
};

/**
 * One server for the tests that need no setting of their own (a start costs about 5 CPU seconds):
 * webhooks to loopback allowed, "big" answering 50 MB. Each of them has users of its own, and
 * none counts what another's users did.
 */
let shared: Promise<PlatformTestServer> | undefined;
const sharedServer = () => (shared ??= startPlatformServer({ runtimes: () => bigOrTest, env: { JOB_WEBHOOK_ALLOW_PRIVATE: 'true' } }));
afterAll(async () => (await shared)?.close());

/**
 * A server with no worker slots (jobs stay queued) on a data directory of its own; `restart(env)`
 * closes it and starts another on the same directory and port (so tokens stay valid), with `env`.
 */
async function withoutWorkers(label: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `limelight-${label}-`));
  dirs.push(dataDir);
  const server = await start({ dataDir, runtimes: () => testRuntime, env: { JOB_WORKER_SLOTS: '0' } });
  const port = Number(new URL(server.url).port);
  const restart = async (env?: Record<string, string>) => {
    await server.close();
    servers.length = 0;
    return start({ dataDir, port, runtimes: () => testRuntime, env });
  };
  return { server, restart };
}

const create = (target: Target, token: string, body: unknown, headers: Record<string, string> = {}) =>
  rawApi(target, 'POST', '/v1/jobs', { token, body, headers });

async function balanceOf(target: Target, token: string): Promise<number> {
  return Number((await rawApi(target, 'GET', '/v1/payment/balance', { token })).json.balance);
}

/** Sets the user's balance to exactly `credits` with one adjustment entry. */
async function setBalance(server: PlatformTestServer, token: string, userId: string, credits: number) {
  const current = await balanceOf(server, token);
  await server.platform.database.db
    .insertInto('credit_ledger')
    .values({ user_id: userId, amount: credits - current, kind: 'adjustment', description: 'test: set the balance' })
    .execute();
}

/** The hold of a run of TEXT2IMG (120 s time limit on its GPU). */
async function text2imgHold(server: PlatformTestServer, token: string): Promise<number> {
  const { json } = await rawApi(server, 'GET', `/v1/jobs/estimate?service_id=${TEXT2IMG}`, { token });
  return holdFor(120, Number(json.price_per_s_usd));
}

describe('credit holds', () => {
  it('accepts exactly 5 of 50 parallel runs with a balance for 5, holds them, and never goes below zero', async () => {
    // No workers first, so every accepted job keeps its hold while the 50 creates race.
    const queued = await withoutWorkers('holds');
    let server = queued.server;
    const { token, userId } = await runner(server, 'holds');
    const hold = await text2imgHold(server, token);
    expect(hold).toBeGreaterThan(0);
    await setBalance(server, token, userId, hold * 5 + hold / 2);

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(server, token, { service_id: TEXT2IMG, input: { prompt: `race ${i}` } })),
    );
    const accepted = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 402);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const r of refused) expect(String(r.json.detail)).toMatch(/^Not enough credits: .*Buy credits at http:\/\/.*\/account\/billing$/);
    const holds = (await rawApi(server, 'GET', '/v1/jobs/holds', { token })).json;
    expect(holds.reserved).toBeCloseTo(hold * 5, 4);
    expect((holds.holds as unknown[]).length).toBe(5);
    // The credits panel reads the same figure beside the balance.
    const balanceAnswer = (await rawApi(server, 'GET', '/v1/payment/balance', { token })).json;
    expect(balanceAnswer.balance).toBeCloseTo(hold * 5.5, 4);
    expect(balanceAnswer.reserved).toBeCloseTo(hold * 5, 4);

    // With workers the five run, settle against their real (tiny) cost and release the rest.
    server = await queued.restart();
    const done = await Promise.all(accepted.map((a) => untilFinal(server, token, String(a.json.job_id))));
    expect(done.every((j) => j.status === 'FINISHED')).toBe(true);
    const spent = done.reduce((sum, j) => sum + j.metrics.cost_credits!, 0);
    const balance = await balanceOf(server, token);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect(balance).toBeCloseTo(hold * 5.5 - spent, 4);
    expect((await rawApi(server, 'GET', '/v1/jobs/holds', { token })).json.reserved).toBe(0);
    expect((await balanceMismatches(server.platform.database.db)).wrong).toEqual([]);
  }, 120_000);

  it('never charges more than the hold, and stops a run whose hold is used up', async () => {
    const queued = await withoutWorkers('hold-cap');
    let server = queued.server;
    const { token } = await runner(server, 'gamer');
    // Past runs were instant, so any estimate would be tiny; this run would take a minute.
    const { json } = await create(server, token, { service_id: TEXT2IMG, input: { prompt: 'sleep:60000' } });
    const id = String(json.job_id);
    // Its hold pays for one second only (as if the time limit were 1 s when it was accepted).
    const price = Number(
      (await server.platform.database.db.selectFrom('jobs').select('price_per_s_usd').where('id', '=', id).executeTakeFirstOrThrow())
        .price_per_s_usd,
    );
    const oneSecond = creditsForRun(1, price);
    await server.platform.database.db.updateTable('jobs').set({ hold_credits: oneSecond }).where('id', '=', id).execute();

    server = await queued.restart();
    const done = await untilFinal(server, token, id);
    expect(done).toMatchObject({ status: 'TIMEOUT', error: { code: 'hold_exhausted' } });
    expect(done.metrics.cost_credits).toBeLessThanOrEqual(oneSecond);
    const usage = await server.platform.database.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('reference', '=', `job:${id}`)
      .executeTakeFirstOrThrow();
    expect(-Number(usage.amount)).toBeLessThanOrEqual(oneSecond);
  }, 120_000);

  it('pays the publisher 30 % of what was collected: nothing when the balance could not pay', async () => {
    const server = await sharedServer();
    const db = server.platform.database.db;
    await db.updateTable('models').set({ created_by: PUBLISHER_ID, is_public: true }).where('id', '=', TEXT2IMG).execute();
    const consumer = await runner(server, 'consumer');
    const earned = () =>
      db
        .selectFrom('credit_ledger')
        .select(sql<string>`coalesce(sum(amount), 0)`.as('n'))
        .where('user_id', '=', PUBLISHER_ID)
        .where('kind', '=', 'earning')
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));

    // A paid run: the publisher earns 30 % of the charge, rounded down.
    let before = await earned();
    const paid = await untilFinal(
      server,
      consumer.token,
      String((await create(server, consumer.token, { service_id: TEXT2IMG, input: { prompt: 'sleep:300' } })).json.job_id),
    );
    const collected = paid.metrics.cost_credits!;
    expect(collected).toBeGreaterThan(0);
    expect((await earned()) - before).toBeCloseTo(Math.floor(collected * PUBLISHER_SHARE * 10_000 + 1e-9) / 10_000, 4);

    // The balance is taken away while the run is going (e.g. a payout): nothing is collected,
    // so nothing is earned, and the balance stays at zero.
    before = await earned();
    const running = await create(server, consumer.token, { service_id: TEXT2IMG, input: { prompt: 'sleep:1500' } });
    await setBalance(server, consumer.token, consumer.userId, 0);
    const unpaid = await untilFinal(server, consumer.token, String(running.json.job_id));
    expect(unpaid.status).toBe('FINISHED');
    expect(await earned()).toBe(before);
    expect(await balanceOf(server, consumer.token)).toBe(0);
    // Charges and earnings of one finish statement are kept in the balances like every entry.
    const kept = await balanceMismatches(db);
    expect(kept.compared).toBeGreaterThanOrEqual(2);
    expect(kept.wrong).toEqual([]);
  }, 60_000);
});

/** An HTTP service that holds each request `holdMs`, then answers 500 (the starvation attack). */
async function slowFailingService(holdMs: number): Promise<{ url: string; server: Server }> {
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    setTimeout(() => res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"no"}'), holdMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const withHttp =
  (local: Runtime): RuntimeChooser =>
  (service) =>
    service.runtime_type === 'http' && service.base_url
      ? createHttpRuntime({ base_url: service.base_url }, { policy: { allowPrivateAddresses: true } })
      : local;

describe('fair scheduling', () => {
  it("two users' slow failing HTTP jobs do not delay a third user's demo job, and they are charged for their slots", async () => {
    const slow = await slowFailingService(4000);
    try {
      // A server of its own: the victim's job must find every slot but the attackers' free.
      const server = await start({ runtimes: withHttp(testRuntime) });
      const attackers = await Promise.all([runner(server, 'attacker-a'), runner(server, 'attacker-b')]);
      const attackJobs: string[] = [];
      for (const attacker of attackers) {
        const service = await httpServiceOf(server, attacker.userId, slow.url);
        for (let i = 0; i < 2; i++) {
          const { status, json } = await create(server, attacker.token, { service_id: service, input: { prompt: `hog ${i}` } });
          expect(status).toBe(201);
          attackJobs.push(String(json.job_id));
        }
      }
      const victim = await runner(server, 'victim');
      const { json } = await create(server, victim.token, { service_id: TEXT2IMG, input: { prompt: 'quick' } });
      const victimJob = await untilFinal(server, victim.token, String(json.job_id));
      const attacks = await Promise.all(attackJobs.map((id, i) => untilFinal(server, attackers[i < 2 ? 0 : 1]!.token, id)));
      expect(victimJob.status).toBe('FINISHED');
      // The victim ran before any attack job ended: the slow jobs never held its slot.
      for (const attack of attacks) expect(Date.parse(victimJob.finished_at!)).toBeLessThan(Date.parse(attack.finished_at!));
      expect(victimJob.metrics.queue_ms).toBeLessThan(1000);
      // Failed slot time is not free: each attack job is charged for the seconds it held.
      for (const attack of attacks) {
        expect(attack.status).toBe('FAILED');
        expect(attack.metrics.cost_credits).toBeGreaterThan(0);
      }
    } finally {
      slow.server.close();
    }
  }, 60_000);

  it("serves users round-robin: another user's first job runs before the rest of one user's backlog", async () => {
    const server = await start({ runtimes: () => testRuntime, env: { JOB_WORKER_SLOTS: '1' } });
    const [hog, other] = await Promise.all([runner(server, 'backlog'), runner(server, 'other')]);
    const backlog: string[] = [];
    for (let i = 0; i < 6; i++) {
      backlog.push(String((await create(server, hog.token, { service_id: TEXT2IMG, input: { prompt: 'sleep:700' } })).json.job_id));
    }
    const first = await untilFinal(
      server,
      other.token,
      String((await create(server, other.token, { service_id: TEXT2IMG, input: { prompt: 'quick' } })).json.job_id),
    );
    const hogJobs = await Promise.all(backlog.map((id) => untilFinal(server, hog.token, id)));
    // At most one backlog job (the one running, plus the one claimed as it was created) starts before it.
    const startedBefore = hogJobs.filter((j) => Date.parse(j.started_at!) < Date.parse(first.started_at!)).length;
    expect(startedBefore).toBeLessThanOrEqual(2);
  }, 60_000);

  it('caps running jobs per service', async () => {
    const server = await start({ runtimes: () => testRuntime, env: { JOB_MAX_RUNNING_PER_SERVICE: '1', JOB_POLL_MS: '50' } });
    const users = await Promise.all([runner(server, 'cap-a'), runner(server, 'cap-b')]);
    const ids = await Promise.all(
      users.map(async (u) => ({
        u,
        id: String((await create(server, u.token, { service_id: TEXT2IMG, input: { prompt: 'sleep:400' } })).json.job_id),
      })),
    );
    const jobs = await Promise.all(ids.map(({ u, id }) => untilFinal(server, u.token, id)));
    const [a, b] = jobs.sort((x, y) => Date.parse(x.started_at!) - Date.parse(y.started_at!));
    // The second started only once the first had ended.
    expect(Date.parse(b!.started_at!)).toBeGreaterThanOrEqual(Date.parse(a!.finished_at!));
  }, 60_000);
});

describe('webhooks', () => {
  it('a receiver that never answers does not hold the claims', async () => {
    const open = new Set<ServerResponse>();
    const receiver = createServer((_req, res) => open.add(res));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const server = await sharedServer();
      const { token } = await runner(server, 'hooks');
      const hooked = await Promise.all(
        Array.from({ length: 6 }, (_, i) => create(server, token, { service_id: TEXT2IMG, input: { prompt: `h${i}` }, webhook: hook })),
      );
      await Promise.all(hooked.map((h) => untilFinal(server, token, String(h.json.job_id))));
      for (let i = 0; i < 200 && open.size === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(open.size).toBeGreaterThan(0);
      // Deliveries are hanging; a new job is still claimed and ends while they hang.
      const next = await untilFinal(
        server,
        token,
        String((await create(server, token, { service_id: TEXT2IMG, input: { prompt: 'after' } })).json.job_id),
      );
      expect(next.status).toBe('FINISHED');
      expect(open.size).toBeGreaterThan(0);
      expect([...open].every((res) => !res.writableEnded)).toBe(true);
    } finally {
      for (const res of open) res.destroy();
      receiver.close();
    }
  }, 60_000);
});

describe('result sizes', () => {
  it('stores a 50 MB result as a file; the list stays valid and small', async () => {
    const server = await sharedServer();
    const { token } = await runner(server, 'big');
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(String((await create(server, token, { service_id: TEXT2IMG, input: { prompt: 'big' } })).json.job_id));
    const done = await Promise.all(ids.map((id) => untilFinal(server, token, id)));
    for (const job of done) {
      expect(job.status).toBe('FINISHED');
      const file = (job.result as { result_file: { url: string; size: number; content_type: string } }).result_file;
      expect(file).toMatchObject({ content_type: 'application/json' });
      expect(file.size).toBeGreaterThan(50 * 1024 * 1024);
    }
    const list = await rawApi(server, 'GET', '/v1/jobs', { token });
    expect(list.status).toBe(200);
    expect((list.json.jobs as unknown as Job[]).map((j) => j.job_id).sort()).toEqual([...ids].sort());
    // The stored file is the result.
    const file = (done[0]!.result as { result_file: { url: string } }).result_file;
    const stored = (await (await fetch(file.url)).json()) as { blob: string };
    expect(stored.blob.length).toBe(50 * 1024 * 1024);
  }, 120_000);
});

describe('wake-ups', () => {
  it('runs every job submitted while the worker is claiming, with polling effectively off', async () => {
    // A poll of 10 minutes: a lost notification would leave a job queued past this test's end.
    const server = await start({ runtimes: () => testRuntime, env: { JOB_POLL_MS: '600000', JOB_WORKER_SLOTS: '1' } });
    const users = await Promise.all([1, 2, 3].map((i) => runner(server, `wake-${i}`)));
    // Three users submit back to back while the single slot claims, runs and claims again.
    const ids = (
      await Promise.all(
        users.map(async (u) => {
          const mine: Array<{ token: string; id: string }> = [];
          for (let i = 0; i < 8; i++) {
            const { json } = await create(server, u.token, { service_id: TEXT2IMG, input: { prompt: `w${i}` } });
            mine.push({ token: u.token, id: String(json.job_id) });
          }
          return mine;
        }),
      )
    ).flat();
    const done = await Promise.all(ids.map(({ token, id }) => untilFinal(server, token, id, 1200)));
    expect(done.every((j) => j.status === 'FINISHED')).toBe(true);
  }, 120_000);

  it('a freed slot claims the jobs already waiting, with nothing queued meanwhile and polling effectively off', async () => {
    // Queued with no workers; then one slot and no creates: only the ends can wake the worker
    // (an end that sees no work waiting does not claim again: docs/jobs.md, speed).
    const queued = await withoutWorkers('freed');
    const { token } = await runner(queued.server, 'freed');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(String((await create(queued.server, token, { service_id: TEXT2IMG, input: { prompt: `f${i}` } })).json.job_id));

    const server = await queued.restart({ JOB_POLL_MS: '600000', JOB_WORKER_SLOTS: '1' });
    const done = await Promise.all(ids.map((id) => untilFinal(server, token, id, 1200)));
    expect(done.map((j) => j.status)).toEqual(ids.map(() => 'FINISHED'));
  }, 120_000);
});
