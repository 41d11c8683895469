import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// CPU time of a PostgreSQL cluster (its postmaster and every backend), read from Linux's /proc, so
// the jobs bench can show what a job costs the database beside what it costs our process: on two
// cores the two share one budget (docs/jobs.md, "Where our time goes").

let tickMs: number | undefined;
const clockTickMs = () => (tickMs ??= 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim() || 100));

/** utime + stime (and, with `reaped`, the CPU of its ended children) of one process, in ms. */
function cpuOf(pid: number, reaped: boolean): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from the 3rd: utime is the 14th, stime 15th, cutime 16th, cstime 17th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks * clockTickMs();
}

/**
 * Answers a function that reads the cluster's CPU time so far in ms, or undefined when it cannot
 * be read (not Linux, or a DATABASE_URL cluster with no data directory here).
 */
export function postgresCpu(dataDir: string | undefined): (() => number) | undefined {
  const pidFile = dataDir && path.join(dataDir, 'postmaster.pid');
  if (!pidFile || !existsSync(pidFile) || !existsSync('/proc/self/stat')) return undefined;
  const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  const childrenFile = `/proc/${postmaster}/task/${postmaster}/children`;
  if (!existsSync(childrenFile)) return undefined;
  return () => {
    const children = readFileSync(childrenFile, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    // A backend may end between the listing and its read: its time is then in the postmaster's reaped CPU.
    const live = children.reduce((sum, pid) => {
      try {
        return sum + cpuOf(pid, false);
      } catch {
        return sum;
      }
    }, 0);
    return cpuOf(postmaster, true) + live;
  };
}

/** Runs `work` and answers its result with the CPU (ms) this process and, when readable, PostgreSQL spent meanwhile. */
export async function withCpu<T>(databaseCpu: (() => number) | undefined, work: () => Promise<T>) {
  const cpu = process.cpuUsage();
  const database = databaseCpu?.();
  const result = await work();
  const { user, system } = process.cpuUsage(cpu);
  return { result, processMs: (user + system) / 1000, databaseMs: database === undefined ? undefined : databaseCpu!() - database };
}
