/** `YYYY-MM` of a date, in UTC. */
export const monthKey = (date: Date) => date.toISOString().slice(0, 7);

/** The last `count` months ending with the current one, oldest first. */
export function lastMonths(count: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    out.push(monthKey(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1))));
  }
  return out;
}
