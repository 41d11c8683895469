import { describe, expect, it } from 'vitest';
import { runPrice } from '../../../src/components/ServiceRunner/runPrice';
import type { PriceBasis } from '../../../src/components/ServiceRunner/useRunnerData';
import { estimateRun } from '../../../src/run/estimate';

// The price the Playground shows before a run (issue 38, item 3): measured, from the example's
// run time, or the GPU's price per second; the same formula as the server's charge.

const basis = (recent: number[], pricePerSecondUsd = 0.0005): PriceBasis => ({
  ...estimateRun({ pricePerSecondUsd, recentRunSeconds: recent }),
  gpu: 'L4',
  pricePerSecondUsd,
});

describe('runPrice', () => {
  it('measured runs win: the median of the recent ones', () => {
    expect(runPrice(basis([2, 4, 3]), { result: null, run_seconds: 9 })).toEqual({
      kind: 'measured',
      credits: 0.138,
      seconds: 3,
      basedOn: 3,
      perSecond: { credits: '0.046', gpu: 'L4' },
    });
  });

  it('no run yet: a run priced as long as the example run took (2 s x $0.0005/s x 92 credits/USD)', () => {
    expect(runPrice(basis([]), { result: null, run_seconds: 2 })).toEqual({
      kind: 'example',
      credits: 0.092,
      seconds: 2,
      perSecond: { credits: '0.046', gpu: 'L4' },
    });
  });

  it('no run and no timed example: the price per second only, never a guessed duration', () => {
    for (const example of [undefined, { result: null }, { result: null, run_seconds: 0 }, { result: null, run_seconds: Number.NaN }]) {
      expect(runPrice(basis([]), example)).toEqual({ kind: 'perSecond', perSecond: { credits: '0.046', gpu: 'L4' } });
    }
  });

  it('no price basis at all (it could not be read): unknown', () => {
    expect(runPrice(null, { result: null, run_seconds: 2 })).toEqual({ kind: 'unknown' });
  });

  it('a demo is free: the catalogue flag before the price basis arrives, the basis hardware after (issue 50, item 2)', () => {
    expect(runPrice(null, { result: null, run_seconds: 2 }, true)).toEqual({ kind: 'demo' });
    expect(runPrice({ ...basis([2, 4]), hardware: 'demo', pricePerSecondUsd: 0 }, undefined)).toEqual({ kind: 'demo' });
  });

  it('a CPU model is priced per second at the CPU tier the server names (issue 50, item 3)', () => {
    const cpu: PriceBasis = { ...basis([], 0.00002), gpu: 'CPU', hardware: 'cpu' };
    // 1 s x $0.00002 x 92 credits/USD = 0.00184, rounded up to the ledger's 4 decimals.
    expect(runPrice(cpu, undefined)).toEqual({ kind: 'perSecond', perSecond: { credits: '0.0019', gpu: 'CPU' } });
  });
});
