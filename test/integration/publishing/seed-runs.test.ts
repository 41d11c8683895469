import { describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api/types';
import { SEEDED_MONTHLY_RUNS } from '../../../reference-app/server/seed';
import { apiClients, DEMO, globalServer, PUBLISHER, signedIn } from '../helpers';

// The seeded accounts' dashboard agrees with itself (issue 39, item 3, "the publisher dashboard's
// counts agree"): the API calls of a month, the runs listed and the credits spent that month are
// the same seeded runs (seed/runs.ts). Before, the publisher had 2,450 calls this month, no run
// at all and 310.2 credits spent on nothing the dashboard lists. The months before this one only:
// other files' tests run as these accounts on the shared server, this month.

const target = globalServer();
const monthOf = (iso: string) => iso.slice(0, 7);

async function allRuns(api: ReturnType<typeof apiClients>): Promise<Job[]> {
  const runs: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.jobs.list({ limit: 100, cursor });
    if (!page.ok) throw new Error(page.error);
    runs.push(...page.data.jobs);
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);
  return runs;
}

describe('seeded runs', () => {
  it.each([
    ['demo', DEMO],
    ['publisher', PUBLISHER],
  ] as const)('%s: each month’s calls, listed runs and credits spent are the same runs', async (account, credentials) => {
    const { session } = await signedIn(target, credentials);
    const api = apiClients(target, session.access_token);
    const [usage, transactions, runs] = await Promise.all([api.profile.usageStatistics(), api.payment.transactions(), allRuns(api)]);
    if (!usage.ok) throw new Error(usage.error);
    if (!transactions.ok) throw new Error(transactions.error);
    const months = usage.data.monthly_api_calls;
    expect(months.map((m) => m.calls).slice(0, -1)).toEqual(SEEDED_MONTHLY_RUNS[account].slice(0, -1));
    // This month has the seeded runs at least, and the dashboard's "Recent runs" lists some.
    expect(months.at(-1)!.calls).toBeGreaterThanOrEqual(SEEDED_MONTHLY_RUNS[account].at(-1)!);
    expect(runs.length).toBeGreaterThan(0);

    for (const { month, calls } of months.slice(0, -1)) {
      const ran = runs.filter((job) => monthOf(job.finished_at ?? job.created_at) === month);
      expect(ran.length, month).toBe(calls);
      const spent = transactions.data.filter((t) => t.kind === 'usage' && monthOf(t.created_at) === month);
      expect(spent.length, month).toBe(calls);
      const charged = ran.reduce((sum, job) => sum + (job.metrics.cost_credits ?? 0), 0);
      expect(-spent.reduce((sum, t) => sum + t.amount, 0), month).toBeCloseTo(charged, 4);
      for (const job of ran) {
        expect(job.status).toBe('FINISHED');
        expect(job.metrics.cost_credits, job.service_id).toBeGreaterThan(0);
      }
    }
  });
});
