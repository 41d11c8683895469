import { describe, expect, it } from 'vitest';
import { EUR_PER_CREDIT, PUBLISHER_SHARE, publisherEarning } from '@limelight/rules';
import { CREDITS_PER_USD, creditsForRun, estimateRun } from '../../../src/run';
import { DEFAULT_RUN_SECONDS } from '../../../src/run/estimate';

describe('metering rule: gpu_seconds × price per second × credits per USD', () => {
  it('states the documented rates: 1 credit = 0.01 EUR, 92 credits per USD, publisher share 30 %', () => {
    expect(EUR_PER_CREDIT).toBe(0.01);
    expect(CREDITS_PER_USD).toBe(92);
    expect(PUBLISHER_SHARE).toBe(0.3);
  });

  it('charges gpu_seconds × price × 92, rounded up to the ledger’s 4 decimals', () => {
    // 10 s on an A100 at 0.00076 USD/s = 0.0076 USD = 0.6992 credits
    expect(creditsForRun(10, 0.00076)).toBe(0.6992);
    // 0.5 s at 0.00016 USD/s = 0.00736 credits -> 0.0074
    expect(creditsForRun(0.5, 0.00016)).toBe(0.0074);
    // A tiny run is never free by rounding.
    expect(creditsForRun(0.001, 0.00016)).toBe(0.0001);
  });

  it('charges nothing for no time or no price', () => {
    expect(creditsForRun(0, 0.001)).toBe(0);
    expect(creditsForRun(5, 0)).toBe(0);
    expect(creditsForRun(Number.NaN, 0.001)).toBe(0);
  });

  it('gives the publisher 30 % of the charge, rounded down', () => {
    expect(publisherEarning(0.6992)).toBe(0.2097);
    expect(publisherEarning(10)).toBe(3);
    expect(publisherEarning(0)).toBe(0);
  });
});

describe('estimateRun', () => {
  it('uses the median and the 90th percentile of recent runs', () => {
    const estimate = estimateRun({ pricePerSecondUsd: 0.001, recentRunSeconds: [4, 1, 2, 3, 10, 5, 6, 7, 8, 9] });
    expect(estimate).toEqual({
      seconds: 5,
      secondsHigh: 9,
      credits: creditsForRun(5, 0.001),
      creditsHigh: creditsForRun(9, 0.001),
      basedOn: 10,
    });
    expect(estimate.credits).toBe(0.46);
  });

  it('falls back to the default run time without history, and ignores nonsense values', () => {
    expect(estimateRun({ pricePerSecondUsd: 0.001, recentRunSeconds: [] })).toMatchObject({
      seconds: DEFAULT_RUN_SECONDS,
      secondsHigh: DEFAULT_RUN_SECONDS,
      basedOn: 0,
    });
    expect(estimateRun({ pricePerSecondUsd: 0.001, recentRunSeconds: [Number.NaN, -1, 2] })).toMatchObject({ seconds: 2, basedOn: 1 });
  });
});
