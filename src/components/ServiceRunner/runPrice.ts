import type { ServiceEndpoint } from '../../api/types';
import { estimateRun } from '../../run/estimate';
import { creditsForRun, formatCredits } from '../../run/metering';
import type { PriceBasis } from './useRunnerData';

/**
 * What the Playground says a run costs, shown to everyone before the first run (issue 38,
 * item 3). Measured: the median of the endpoint's recent runs. Example: no run yet, priced from
 * how long the endpoint's example run took (the seed records it), through the same formula the
 * server charges with. Per second: neither is known, so only the GPU's price, never a guessed
 * duration. Demo: the service runs on the demo runtime, so a run is free. Pure, so the rule is
 * tested without a browser.
 */
export type RunPrice =
  | { kind: 'demo' }
  | { kind: 'measured'; credits: number; seconds: number; basedOn: number; perSecond: PerSecond }
  | { kind: 'example'; credits: number; seconds: number; perSecond: PerSecond }
  | { kind: 'perSecond'; perSecond: PerSecond }
  | { kind: 'unknown' };

/** The GPU's price per second in credits (formatCredits: up to the ledger's 4 decimals) and its name. */
export type PerSecond = { credits: string; gpu: string };

export function runPrice(basis: PriceBasis | null, example: ServiceEndpoint['example'] | undefined, demo = false): RunPrice {
  // A service on the demo runtime runs free (docs/jobs.md: metering): the catalogue's flag says
  // so before the price basis arrives, the basis's hardware after.
  if (demo || basis?.hardware === 'demo') return { kind: 'demo' };
  if (!basis) return { kind: 'unknown' };
  const perSecond = { credits: formatCredits(creditsForRun(1, basis.pricePerSecondUsd)), gpu: basis.gpu };
  if (basis.basedOn > 0) return { kind: 'measured', credits: basis.credits, seconds: basis.seconds, basedOn: basis.basedOn, perSecond };
  const seconds = example?.run_seconds;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) {
    const priced = estimateRun({ pricePerSecondUsd: basis.pricePerSecondUsd, recentRunSeconds: [seconds] });
    return { kind: 'example', credits: priced.credits, seconds, perSecond };
  }
  return { kind: 'perSecond', perSecond };
}
