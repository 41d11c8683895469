import { lastMonths, monthKey } from '../api/months';
import type { Db } from '../db/types';
import { incrementApiUsage, selectUsageSince } from './queries';

// Usage statistics: API calls per month, counted when an API key authenticates
// (profile/callers.ts through recordApiKeyUse). The only writer of `api_usage`.

/** Counts one API call of the user in the month of `at`. */
export async function countApiCall(db: Db, userId: string, at: Date): Promise<void> {
  await incrementApiUsage(db, userId, monthKey(at));
}

export const USAGE_MONTHS = 12;

/** The last USAGE_MONTHS months, oldest first, with 0 for months without calls. */
export async function usageStatistics(db: Db, userId: string, now = new Date()) {
  const months = lastMonths(USAGE_MONTHS, now);
  const rows = await selectUsageSince(db, userId, months[0]!);
  const byMonth = new Map(rows.map((r) => [r.month, r.calls]));
  return { monthly_api_calls: months.map((month) => ({ month, calls: byMonth.get(month) ?? 0 })) };
}
