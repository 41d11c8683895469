import type { Transaction, UsageStatistics } from '../../api/types';

/** `YYYY-MM` of an ISO date, in UTC (the server's months are UTC). */
export function monthOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 7);
}

/** Credits spent on runs per month (usage transactions, as positive numbers), oldest first. */
export function creditsSpentByMonth(transactions: readonly Transaction[]): Array<{ month: string; credits: number }> {
  const spent = new Map<string, number>();
  for (const t of transactions) {
    if (t.kind !== 'usage' || Number.isNaN(new Date(t.created_at).getTime())) continue;
    const month = monthOf(t.created_at);
    spent.set(month, (spent.get(month) ?? 0) - t.amount);
  }
  return [...spent].sort(([a], [b]) => a.localeCompare(b)).map(([month, credits]) => ({ month, credits }));
}

/** The balance at the end of each month with a transaction, oldest first (credits over time). */
export function balanceByMonth(transactions: readonly Transaction[]): Array<{ month: string; balance: number }> {
  const sorted = transactions
    .filter((t) => !Number.isNaN(new Date(t.created_at).getTime()))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const out: Array<{ month: string; balance: number }> = [];
  let balance = 0;
  for (const t of sorted) {
    balance += t.amount;
    const month = monthOf(t.created_at);
    const last = out[out.length - 1];
    if (last?.month === month) last.balance = balance;
    else out.push({ month, balance });
  }
  return out;
}

/** One row per month that has calls or spending: the usage chart's data, oldest first. */
export function usageRows(
  usage: UsageStatistics | null,
  transactions: readonly Transaction[] | null,
): Array<{ month: string; calls: number; credits: number }> {
  const rows = new Map<string, { month: string; calls: number; credits: number }>();
  const row = (month: string) => rows.get(month) ?? rows.set(month, { month, calls: 0, credits: 0 }).get(month)!;
  for (const m of usage?.monthly_api_calls ?? []) row(m.month).calls += m.calls;
  for (const m of creditsSpentByMonth(transactions ?? [])) row(m.month).credits += m.credits;
  return [...rows.values()].sort((a, b) => a.month.localeCompare(b.month));
}
