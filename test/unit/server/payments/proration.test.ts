import { describe, expect, it } from 'vitest';
import { proratedDifferenceMinor } from '../../../../reference-app/server/payments/proration';

// docs/payments.md, "Plan changes": the difference for the time left in the 30-day period.

const now = new Date('2026-11-01T00:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * 86_400_000);

describe('proratedDifferenceMinor', () => {
  it('charges an upgrade and refunds a downgrade in proportion to the time left', () => {
    expect(proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: inDays(30), now })).toBe(1500);
    expect(proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: inDays(15), now })).toBe(750);
    expect(proratedDifferenceMinor({ fromMinor: 1999, toMinor: 499, periodEnd: inDays(15), now })).toBe(-750);
  });

  it('rounds half away from zero, so an upgrade and the downgrade back cancel out', () => {
    const up = proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: inDays(1), now });
    const down = proratedDifferenceMinor({ fromMinor: 1999, toMinor: 499, periodEnd: inDays(1), now });
    expect(up).toBe(50);
    expect(up + down).toBe(0);
  });

  it('is 0 after the period and caps a period end beyond 30 days', () => {
    expect(proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: inDays(-1), now })).toBe(0);
    expect(proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: null, now })).toBe(0);
    expect(proratedDifferenceMinor({ fromMinor: 499, toMinor: 1999, periodEnd: inDays(90), now })).toBe(1500);
  });
});
