import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawApi } from '../helpers';
import { runner, untilFinal } from '../jobs/fixtures';
import { postJson, recordLoad, restartablePort, type ServerProcess, spawnServer } from './fixtures';

// PGlite, the default database, killed with `kill -9` during a burst of writes and started
// again on the same DATA_DIR (docs/deploy.md, "When the database goes away": PGlite). It starts
// (no corrupted store), and every write it acknowledged is there: credit purchases, API keys,
// job creates (each then ends: a run cut off by the kill is put back once at this start).

const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-kill-pglite-'));
let server: ServerProcess | undefined;

afterAll(() => {
  server?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 of a server on PGlite', () => {
  it('starts again on the same DATA_DIR with every acknowledged write', async () => {
    const port = await restartablePort();
    const env = { DATA_DIR: dataDir, RATE_LIMIT_JOBS: '0' };
    server = await spawnServer(env, port);
    const user = await runner(server, 'kill-pglite');
    const target = server;

    const purchases: number[] = []; // acknowledged quantities, each bought once
    const keys: string[] = [];
    const jobs = new Map<string, string>(); // Idempotency-Key -> job id
    let quantity = 0;
    const burst = recordLoad(6, async (i) => {
      if (i % 3 === 0) {
        const key = `burst-${randomBytes(6).toString('hex')}`;
        const response = await postJson(
          target,
          user.token,
          '/v1/jobs',
          { service_id: 'lime-diffusion-xl', input: { prompt: key, width: 64, height: 64 } },
          {
            'Idempotency-Key': key,
          },
        );
        if (response.ok) jobs.set(key, String(((await response.clone().json()) as { job_id: string }).job_id));
        return { what: 'create', response };
      }
      if (i % 3 === 1 || keys.length >= 20) {
        const bought = ++quantity;
        const response = await postJson(target, user.token, '/v1/payment/buy_credit', { quantity: bought });
        if (response.ok) purchases.push(bought);
        return { what: 'purchase', response };
      }
      const response = await postJson(target, user.token, '/v1/profile/create_api_key', {});
      if (response.ok) keys.push(String(((await response.clone().json()) as { id: string }).id));
      return { what: 'key', response };
    });
    // Killed mid-burst, once it has acknowledged some of each.
    while (purchases.length < 10 || jobs.size < 5) await new Promise((r) => setTimeout(r, 50));
    target.child.kill('SIGKILL');
    await target.exited;
    await burst.stop();

    const restartedAt = Date.now();
    server = await spawnServer(env, port);
    const startMs = Date.now() - restartedAt;
    const again = server;

    const transactions = await rawApi(again, 'GET', '/v1/payment/get_transactions', { token: user.token });
    const entries = transactions.json as unknown as { amount: number; kind: string }[];
    const bought = entries.filter((e) => e.kind === 'purchase').map((e) => e.amount);
    expect(purchases.filter((q) => !bought.includes(q))).toEqual([]);
    const balance = await rawApi(again, 'GET', '/v1/payment/balance', { token: user.token });
    expect(Number(balance.json.balance)).toBeCloseTo(
      entries.reduce((sum, e) => sum + e.amount, 0),
      4,
    );
    const listed = await rawApi(again, 'GET', '/v1/profile/api_keys', { token: user.token });
    const listedIds = new Set((listed.json as unknown as { id: string }[]).map((k) => k.id));
    expect(keys.filter((id) => !listedIds.has(id))).toEqual([]);
    for (const [key, jobId] of jobs) {
      const replay = await postJson(
        again,
        user.token,
        '/v1/jobs',
        { service_id: 'lime-diffusion-xl', input: { prompt: key, width: 64, height: 64 } },
        {
          'Idempotency-Key': key,
        },
      );
      expect([replay.status, ((await replay.json()) as { job_id: string }).job_id]).toEqual([200, jobId]);
    }
    const ended = await Promise.all([...jobs.values()].map((id) => untilFinal(again, user.token, id, 1_200)));
    expect(ended.filter((job) => job.status !== 'FINISHED').map((job) => [job.job_id, job.status, job.error])).toEqual([]);
    // A create in flight at the kill may have been committed without its answer reaching us: its
    // job is the user's too, runs after the restart and holds credits until it ends. Every hold
    // left must belong to such a job, which ends and releases it.
    const unacknowledged = (await rawApi(again, 'GET', '/v1/jobs/holds', { token: user.token })).json.holds as { job_id: string }[];
    await Promise.all(unacknowledged.map((hold) => untilFinal(again, user.token, hold.job_id, 1_200)));
    const holds = await rawApi(again, 'GET', '/v1/jobs/holds', { token: user.token });
    expect(holds.json).toMatchObject({ reserved: 0 });
    console.info(
      `reliability: PGlite kill -9 mid-burst, started again in ${startMs} ms; acknowledged ${purchases.length} purchases, ` +
        `${keys.length} keys, ${jobs.size} jobs: all there, all jobs FINISHED, holds 0`,
    );
  }, 180_000);
});
