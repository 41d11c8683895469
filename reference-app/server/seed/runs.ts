import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { creditsForRun, publisherEarning } from '@limelight/rules';
import { lastMonths, monthKey } from '../api/months';
import type { Db } from '../db/types';
import { gpuPriceOf } from '../jobs/pricing';
import { addEntry } from '../payments/ledger';
import { LOCAL_DEMO } from '../runtimes/local/index';
import { ENDPOINTS } from './endpoints';
import { SEED_MODELS } from './models';
import { SEED_USERS } from './users';

// The seeded accounts' run history (issue 39: "the publisher dashboard's counts agree"). The
// dashboard shows a user's API calls this month, the calls and credits spent per month and the
// latest runs; they used to come from three unrelated seed lists (12 months of call counts, two
// hand-written usage entries, no jobs at all), so the publisher saw 2,450 calls beside "No runs
// yet". Here the runs are the one source: each is a real finished job row, and from the rows come
// what a finished run books (jobs/sql/finishJobs.ts): one call in `api_usage` for its month, its
// charge as a 'usage' ledger entry (reference `job:<id>`) priced as a live run is (the service's
// GPU price, creditsForRun) and the owner's earning. The services' run counts (models.n_usages)
// are the catalogue's seeded totals, which include these runs.

/** Runs per month of each signed-in seed account, oldest first, for the last 12 months. */
export const SEEDED_MONTHLY_RUNS: Record<'demo' | 'publisher', readonly number[]> = {
  demo: [0, 0, 2, 4, 3, 6, 5, 9, 8, 12, 10, 6],
  publisher: [0, 0, 3, 5, 4, 8, 6, 9, 12, 10, 14, 7],
};

/**
 * The team's public services the seeded runs use, each only once it exists (its seeded age). Not
 * the services the tests price runs of from an empty history (lime-diffusion-xl, the local models).
 */
const RUN_SERVICES = ['code-lime-34b', 'lime-faceswap', 'lime-upscale', 'lime-jingle'] as const;

const DAY = 86_400_000;
/** A seeded run's GPU seconds: 1.2 to 2.8, varied so the estimate's recent runs are not one value. */
const secondsOf = (n: number) => 1.2 + (n % 5) * 0.4;

export interface SeededRun {
  userId: string;
  serviceId: string;
  endpoint: string;
  createdAt: Date;
  gpuSeconds: number;
}

/**
 * The seeded runs, oldest first: each month's count spread evenly over the month (this month's
 * up to ten minutes ago), each on the first listed service that existed at the time.
 */
export function seededRuns(now = new Date()): SeededRun[] {
  const runs: SeededRun[] = [];
  for (const [account, counts] of Object.entries(SEEDED_MONTHLY_RUNS) as Array<[keyof typeof SEEDED_MONTHLY_RUNS, readonly number[]]>) {
    const months = lastMonths(counts.length, now);
    for (const [i, month] of months.entries()) {
      const start = Date.parse(`${month}-01T00:00:00Z`);
      const end = Math.min(i + 1 < months.length ? Date.parse(`${months[i + 1]}-01T00:00:00Z`) : Infinity, now.getTime() - 600_000);
      const span = Math.max(0, end - start);
      for (let n = 0; n < counts[i]!; n++) {
        const createdAt = new Date(start + Math.floor(((n + 0.5) / counts[i]!) * span));
        const existing = RUN_SERVICES.map((id) => SEED_MODELS.find((m) => m.id === id)!).filter(
          (m) => now.getTime() - m.days * DAY < createdAt.getTime(),
        );
        const model = existing[(n + i) % Math.max(1, existing.length)];
        if (!model) throw new Error(`seed: no run service existed on ${createdAt.toISOString()}`);
        const endpoint = ENDPOINTS[model.kind]?.[0]?.path;
        if (!endpoint) throw new Error(`seed: ${model.id} has no endpoint`);
        runs.push({ userId: SEED_USERS[account].id, serviceId: model.id, endpoint, createdAt, gpuSeconds: secondsOf(n + i) });
      }
    }
  }
  return runs.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Inserts the seeded runs and what they booked; after the catalogue and the GPU prices. */
export async function seedRuns(trx: Db, now = new Date()): Promise<void> {
  const runs = seededRuns(now);
  const calls = new Map<string, number>();
  // One price read per service, not per run: four services price about 150 runs.
  const prices = new Map<string, ReturnType<typeof gpuPriceOf>>();
  for (const run of runs) {
    if (!prices.has(run.serviceId)) prices.set(run.serviceId, gpuPriceOf(trx, run.serviceId));
    const price = await prices.get(run.serviceId)!;
    const cost = creditsForRun(run.gpuSeconds, price.pricePerSecondUsd);
    const id = randomUUID();
    const startedAt = new Date(run.createdAt.getTime() + 150);
    const finishedAt = new Date(startedAt.getTime() + run.gpuSeconds * 1000);
    await trx
      .insertInto('jobs')
      .values({
        id,
        user_id: run.userId,
        service_id: run.serviceId,
        publisher_id: SEED_USERS.team.id,
        endpoint: run.endpoint,
        status: 'FINISHED',
        progress: 1,
        input: JSON.stringify({}),
        // The row types ask for JSON text; a seeded run has neither result nor error (SQL NULL).
        result: sql<string>`NULL`,
        error: sql<string>`NULL`,
        runtime: LOCAL_DEMO,
        time_limit_s: 120,
        price_per_s_usd: price.pricePerSecondUsd,
        gpu_seconds: run.gpuSeconds,
        cost_credits: cost,
        created_at: run.createdAt,
        started_at: startedAt,
        finished_at: finishedAt,
        // Seeded runs keep no output (result stays null): their retention ended as they finished.
        output_expires_at: finishedAt,
      })
      .execute();
    const description = `Run of ${run.serviceId} ${run.endpoint}: ${run.gpuSeconds.toFixed(2)} GPU seconds`;
    await addEntry(trx, { userId: run.userId, amount: -cost, kind: 'usage', description, reference: `job:${id}`, createdAt: finishedAt });
    const earning = publisherEarning(cost);
    if (earning > 0) {
      await addEntry(trx, {
        userId: SEED_USERS.team.id,
        amount: earning,
        kind: 'earning',
        description: `Share of a run of ${run.serviceId}`,
        reference: `job:${id}:earning`,
        createdAt: finishedAt,
      });
    }
    const key = `${run.userId} ${monthKey(finishedAt)}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
  }
  const rows = [...calls].map(([key, count]) => {
    const [user_id, month] = key.split(' ') as [string, string];
    return { user_id, month, calls: count };
  });
  if (rows.length) await trx.insertInto('api_usage').values(rows).execute();
}
