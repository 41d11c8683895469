import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

// How long the event loop stalls (docs/deploy.md, "Metrics"): a perf_hooks histogram of the
// loop's delay. /metrics reads the process-wide probe and resets it on each scrape, so its
// gauges say the worst stall since the previous scrape; tests and benches make their own probe,
// so reading theirs never disturbs the operators' figures.

export interface LoopDelay {
  /** The longest stall seen, in milliseconds. */
  maxMs: number;
  p99Ms: number;
}

export interface LoopDelayProbe {
  /** The delays since the last reset. */
  read(): LoopDelay;
  /** Reads, then starts counting afresh. */
  take(): LoopDelay;
  stop(): void;
}

/** A probe sampling every `resolutionMs` (finer costs a timer wake-up per step). */
export function loopDelayProbe(resolutionMs = 10): LoopDelayProbe {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  // The histogram holds 0 (and max 0) until its first sample: nothing stalled yet.
  const read = (): LoopDelay => ({ maxMs: histogram.max / 1e6, p99Ms: histogram.count ? histogram.percentile(99) / 1e6 : 0 });
  return {
    read,
    take() {
      const delay = read();
      histogram.reset();
      return delay;
    },
    stop: () => histogram.disable(),
  };
}

let shared: LoopDelayProbe | undefined;

/** The process-wide probe /metrics reports: its maximum and p99 since the last call, then reset. */
export function takeLoopDelay(): LoopDelay {
  shared ??= loopDelayProbe();
  return shared.take();
}
