import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';

// BENCH_BACKGROUND_LOAD=N (docs/jobs.md, "Speed"): N processes that only spin, beside the bench,
// so a pickup tail seen on a busy machine can be reproduced on a quiet one. Each burner is a bare
// Node process in a busy loop; they are ended when the bench ends (and die with it otherwise, as
// they watch their parent).

/** The burners asked for by BENCH_BACKGROUND_LOAD (0 when unset). */
export function backgroundLoadWanted(): number {
  const raw = process.env.BENCH_BACKGROUND_LOAD ?? '0';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`BENCH_BACKGROUND_LOAD must be a whole number 0-64, not "${raw}"`);
  return n;
}

/** The burner's program: spin, checking every 100 ms that the bench still runs (never an orphan). */
const BURNER = `const parent = process.ppid; let t = Date.now();
for (;;) { if (Date.now() - t > 100) { t = Date.now(); try { process.kill(parent, 0); } catch { process.exit(0); } } }`;

/** Starts `count` burners; the answer stops them. */
export function startBackgroundLoad(count: number): () => void {
  const burners: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', BURNER], { stdio: 'ignore' }));
  const stop = () => {
    for (const burner of burners) if (burner.exitCode === null) burner.kill('SIGKILL');
  };
  process.once('exit', stop);
  return stop;
}

/** The 1-minute load average, for the JSON line (figures mean little without it). */
export const loadAverage = () => Math.round(loadavg()[0]! * 100) / 100;
