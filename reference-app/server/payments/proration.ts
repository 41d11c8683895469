// Plan changes of a running subscription (docs/payments.md, "Plan changes"): the change applies at
// once and keeps the period's end; the price difference for the rest of the period is charged
// (an upgrade) or refunded (a downgrade) right away, in proportion to the time left.

export const SUBSCRIPTION_PERIOD_DAYS = 30;
const PERIOD_MS = SUBSCRIPTION_PERIOD_DAYS * 86_400_000;

/**
 * The prorated difference in minor units (cents): positive is charged, negative refunded, 0 when
 * the period has ended. Rounded to the cent, half away from zero, so an upgrade and the
 * downgrade back at the same moment cancel out.
 */
export function proratedDifferenceMinor(change: { fromMinor: number; toMinor: number; periodEnd: Date | null; now: Date }): number {
  if (!change.periodEnd) return 0;
  const left = Math.min(PERIOD_MS, Math.max(0, change.periodEnd.getTime() - change.now.getTime()));
  const exact = ((change.toMinor - change.fromMinor) * left) / PERIOD_MS;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}
