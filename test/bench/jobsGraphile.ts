import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { atATime } from './benchLoad';
import { withCpu } from './processTreeCpu';

// The anchor of the jobs bench: graphile-worker (a devDependency used only here) doing the same
// work as our queue on the same PostgreSQL: `jobs` no-op jobs added 10 at a time and run with
// `concurrency` slots (jobs/s from the first add until the last one ran, after the same warm-up as ours), then `sequential` jobs
// one after the other, timing add_job -> task start (its pickup). Default settings otherwise,
// as an application would run it. It lives in its own schema (graphile_worker).

/** Its informational lines would bury the table. */
const quiet = new Logger(() => () => {});

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

export async function graphileBench(
  connectionString: string,
  work: { jobs: number; warmup: number; sequential: number; concurrency: number },
  /** Reads PostgreSQL's CPU time so far (ms), when it can be read. */
  databaseCpu?: () => number,
) {
  let ran = 0;
  let onRun: (() => void) | undefined;
  let startedAt: number | undefined;
  const runner = await run({
    connectionString,
    concurrency: work.concurrency,
    noHandleSignals: true,
    logger: quiet,
    taskList: {
      noop: async () => {
        startedAt ??= performance.now();
        ran++;
        onRun?.();
      },
    },
  });
  const utils = await makeWorkerUtils({ connectionString, logger: quiet });
  try {
    /** `jobs` jobs added 10 at a time, until all ran; answers jobs per second. */
    const throughput = async (jobs: number) => {
      ran = 0;
      const started = performance.now();
      await atATime(jobs, 10, (n) => utils.addJob('noop', { n }));
      await until(
        () => ran >= jobs,
        (f) => (onRun = f),
      );
      return jobs / ((performance.now() - started) / 1000);
    };
    await throughput(Math.max(1, work.warmup)); // the same warm-up as ours
    const measured = await withCpu(databaseCpu, () => throughput(work.jobs));

    const pickup: number[] = [];
    for (let i = 0; i < work.sequential; i++) {
      startedAt = undefined;
      const t0 = performance.now();
      await utils.addJob('noop', { sequential: i });
      await until(
        () => startedAt !== undefined,
        (f) => (onRun = f),
      );
      pickup.push(startedAt! - t0);
    }
    return {
      jobsPerSecond: Math.round(measured.result),
      /** CPU of this process (its worker and its add_job calls) and of PostgreSQL over the measured jobs. */
      cpuMs: measured.processMs,
      databaseCpuMs: measured.databaseMs,
      pickupP50: Math.round(percentile(pickup, 0.5) * 10) / 10,
      pickupP99: Math.round(percentile(pickup, 0.99) * 10) / 10,
    };
  } finally {
    await utils.release();
    await runner.stop();
  }
}

/** Resolves once `done()` holds, re-checked whenever the task calls the registered callback. */
function until(done: () => boolean, register: (f: (() => void) | undefined) => void): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) return;
      register(undefined);
      resolve();
    };
    register(check);
    check();
  });
}
