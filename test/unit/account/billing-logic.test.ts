import { describe, expect, it } from 'vitest';
import { chartGeometry, CHART_BOX } from '../../../src/components/UsageChart/chartModel';
import { formatMonth } from '../../../src/components/AccountPanel/format';
import { isUpgrade, planChangeTargets, statusKind } from '../../../src/components/SubscriptionPanel/subscriptionActions';

// The billing page's logic apart from its rendering (docs/payments.md): the usage chart's time
// axis, month labels in the locale's words, and what the subscription offers in each state.

const MONTH_FORMAT = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });

describe('formatMonth', () => {
  it('writes a month key in the locale’s month and year, the key itself when it is not one', () => {
    expect(formatMonth('2026-11')).toBe(MONTH_FORMAT.format(new Date(Date.UTC(2026, 10, 1))));
    expect(formatMonth('2026-11')).not.toContain('2026-11');
    expect(formatMonth('M3')).toBe('M3');
  });
});

describe('chartGeometry on a time axis', () => {
  const data = ['2025-10', '2026-05', '2026-10', '2026-11'].map((label, i) => ({ label, value: (i + 1) * 10 }));

  it('spaces months by time: 7 months apart is 7 times the gap of neighbouring months', () => {
    for (const kind of ['bar', 'line'] as const) {
      const { points, timeAxis } = chartGeometry(data, kind);
      expect(timeAxis).toBe(true);
      const [a, b, c, d] = points.map((p) => p.x) as [number, number, number, number];
      // Points sit mid-month: mid-Oct -> mid-May is 212 days, mid-May -> mid-Oct 153, mid-Oct -> mid-Nov 30.5.
      expect((b - a) / (d - c)).toBeCloseTo(212 / 30.5, 2);
      expect((c - b) / (d - c)).toBeCloseTo(153 / 30.5, 2);
      expect(a).toBeGreaterThan(CHART_BOX.left);
      expect(d).toBeLessThan(CHART_BOX.width - CHART_BOX.right);
    }
  });

  it('labels the axis with locale month names at a step that keeps them apart; bars fit their month', () => {
    const { points, xTicks } = chartGeometry(data, 'bar');
    expect(points.map((p) => p.text)).toEqual(data.map((d) => formatMonth(d.label)));
    expect(xTicks[0]!.text).toBe(formatMonth('2025-10'));
    const gaps = xTicks.slice(1).map((t, i) => t.x - xTicks[i]!.x);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(56);
    const [, , oct, nov] = points;
    expect(oct!.barX + oct!.barWidth).toBeLessThan(nov!.barX);
  });

  it('other labels keep an evenly spaced category axis', () => {
    const { points, timeAxis, xTicks } = chartGeometry(
      ['A', 'B', 'C'].map((label) => ({ label, value: 1 })),
      'line',
    );
    expect(timeAxis).toBe(false);
    expect(points[1]!.x - points[0]!.x).toBeCloseTo(points[2]!.x - points[1]!.x);
    expect(xTicks.map((t) => t.text)).toEqual(['A', 'B', 'C']);
  });
});

describe('subscription states', () => {
  const sub = (status: 'active' | 'canceled' | 'none', plan_type: 'plus' | 'pro', cancel_at_period_end = false) => ({
    status,
    plan_type,
    cancel_at_period_end,
    current_period_end: '2026-12-24T00:00:00Z',
  });

  it('an active plan can switch to the other paid plan; one set to end or ended cannot', () => {
    expect(planChangeTargets(sub('active', 'plus'))).toEqual(['pro']);
    expect(planChangeTargets(sub('active', 'pro'))).toEqual(['plus']);
    expect(planChangeTargets(sub('active', 'pro', true))).toEqual([]);
    expect(planChangeTargets(sub('canceled', 'pro'))).toEqual([]);
    expect(planChangeTargets(null)).toEqual([]);
    expect(isUpgrade('plus', 'pro')).toBe(true);
    expect(isUpgrade('pro', 'plus')).toBe(false);
  });

  it('a subscription set to end is "ending" (its date is the status), not active', () => {
    expect(statusKind(sub('active', 'plus', true))).toBe('ending');
    expect(statusKind(sub('active', 'plus'))).toBe('active');
    expect(statusKind(sub('canceled', 'plus'))).toBe('canceled');
  });
});
