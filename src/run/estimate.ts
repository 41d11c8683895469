import { creditsForRun } from './metering';

// A cost estimate before running: how long recent runs of the endpoint took and what that costs
// on the service's GPU. Pure, so the widget shows exactly what the server would charge.

/** Assumed run time when an endpoint has never run. */
export const DEFAULT_RUN_SECONDS = 5;

/** A run's expected time and credits, from the endpoint's recent runs. */
export interface RunEstimate {
  /** Typical run time (median of recent runs), seconds. */
  seconds: number;
  /** A slow run (90th percentile), seconds. */
  secondsHigh: number;
  /** Credits for a typical run. */
  credits: number;
  /** Credits for a slow run. */
  creditsHigh: number;
  /** How many past runs the figures come from (0: the default guess). */
  basedOn: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank]!;
}

/** Estimates a run's time and credits from the endpoint's recent run times and the GPU price, as the server will charge it. */
export function estimateRun(options: { pricePerSecondUsd: number; recentRunSeconds: readonly number[] }): RunEstimate {
  const runs = options.recentRunSeconds.filter((s) => Number.isFinite(s) && s >= 0).sort((a, b) => a - b);
  const seconds = runs.length ? percentile(runs, 0.5) : DEFAULT_RUN_SECONDS;
  const secondsHigh = runs.length ? percentile(runs, 0.9) : DEFAULT_RUN_SECONDS;
  return {
    seconds,
    secondsHigh,
    credits: creditsForRun(seconds, options.pricePerSecondUsd),
    creditsHigh: creditsForRun(secondsHigh, options.pricePerSecondUsd),
    basedOn: runs.length,
  };
}
