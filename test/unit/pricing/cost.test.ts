import { describe, expect, it } from 'vitest';
import { DEFAULT_EXECUTION_MS, DEFAULT_REQUESTS_PER_HOUR, monthlyCostUsd, monthlyGpuSeconds } from '../../../src/pricing';
import { DAYS_PER_MONTH, HOURS_PER_DAY, MAX_EXECUTION_MS, MAX_REQUESTS_PER_HOUR } from '../../../src/pricing/constants';
import { roundUsd } from '../../../src/pricing/cost';

describe('monthly cost (product-rules §9 "Calculator and lists")', () => {
  it('product-rules §9: defaults are 100 requests per hour and 300 ms', () => {
    expect(DEFAULT_REQUESTS_PER_HOUR).toBe(100);
    expect(DEFAULT_EXECUTION_MS).toBe(300);
  });

  it('product-rules §9: a month is 24 hours x 30 days', () => {
    expect(HOURS_PER_DAY * DAYS_PER_MONTH).toBe(720);
  });

  it('product-rules §9: requests per hour x 24 x 30 x ms / 1000 GPU seconds', () => {
    expect(monthlyGpuSeconds(100, 300)).toBe(21_600);
    expect(monthlyGpuSeconds(1, 1000)).toBe(720);
    expect(monthlyGpuSeconds(0, 300)).toBe(0);
  });

  it('product-rules §9: x price per second, rounded to whole dollars', () => {
    // 100 x 24 x 30 x 300 / 1000 = 21,600 s; x $0.00016 = $3.456 -> $3
    expect(monthlyCostUsd({ requestsPerHour: 100, executionMs: 300, pricePerSecondUsd: 0.00016 })).toBe(3);
    // 21,600 s x $0.00155 = $33.48 -> $33
    expect(monthlyCostUsd({ requestsPerHour: 100, executionMs: 300, pricePerSecondUsd: 0.00155 })).toBe(33);
    // 1,000 x 720 x 2.5 s = 1,800,000 s x $0.00076 = $1,368
    expect(monthlyCostUsd({ requestsPerHour: 1000, executionMs: 2500, pricePerSecondUsd: 0.00076 })).toBe(1368);
    // 250 x 720 x 0.9 = 162,000 s x 0.000225 = 36.45 -> 36
    expect(monthlyCostUsd({ requestsPerHour: 250, executionMs: 900, pricePerSecondUsd: 0.000225 })).toBe(36);
  });

  it('product-rules §9 rounding: an exact decimal half rounds up despite binary floating point', () => {
    // 125 x 720 x 0.5 s = 45,000 s x $0.0003 = $13.5 exactly in decimal, 13.499999... in binary.
    expect(((125 * 24 * 30 * 500) / 1000) * 0.0003).toBeLessThan(13.5);
    expect(monthlyCostUsd({ requestsPerHour: 125, executionMs: 500, pricePerSecondUsd: 0.0003 })).toBe(14);
    expect(roundUsd(0.49)).toBe(0);
    expect(roundUsd(0.5)).toBe(1);
    expect(roundUsd(2.675)).toBe(3);
  });

  it('zero requests or zero time cost nothing', () => {
    expect(monthlyCostUsd({ requestsPerHour: 0, executionMs: 300, pricePerSecondUsd: 0.001 })).toBe(0);
    expect(monthlyCostUsd({ requestsPerHour: 100, executionMs: 0, pricePerSecondUsd: 0.001 })).toBe(0);
  });

  it('product-rules §9: never NaN or Infinity; bad numbers give null', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1]) {
      expect(monthlyCostUsd({ requestsPerHour: bad, executionMs: 300, pricePerSecondUsd: 0.001 })).toBeNull();
      expect(monthlyCostUsd({ requestsPerHour: 100, executionMs: bad, pricePerSecondUsd: 0.001 })).toBeNull();
      expect(monthlyCostUsd({ requestsPerHour: 100, executionMs: 300, pricePerSecondUsd: bad })).toBeNull();
    }
    expect(roundUsd(Number.POSITIVE_INFINITY)).toBeNaN();
  });

  it('stays finite at the largest accepted inputs', () => {
    const cost = monthlyCostUsd({ requestsPerHour: MAX_REQUESTS_PER_HOUR, executionMs: MAX_EXECUTION_MS, pricePerSecondUsd: 0.002 });
    expect(Number.isFinite(cost)).toBe(true);
    expect(cost).toBe(5_184_000_000);
  });
});
