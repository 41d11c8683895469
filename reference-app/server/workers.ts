import cluster, { type Worker } from 'node:cluster';
import type { ServerConfig } from './config';
import { log } from './log';

// WORKERS=N: N server processes on one port (node:cluster hands connections out round-robin),
// sharing one PostgreSQL (docs/deploy.md, "Several processes").

export class WorkersError extends Error {
  override name = 'WorkersError';
}

/** Restarts of crashed workers allowed per minute before the primary gives up. */
const MAX_RESTARTS_PER_MINUTE = 10;

/** Why this configuration cannot run several processes, or undefined when it can. */
export function workersRefusal(workers: number, config: Pick<ServerConfig, 'databaseUrl'>, dev: boolean): string | undefined {
  if (workers <= 1) return undefined;
  if (dev) return `WORKERS=${workers} cannot be combined with --dev (the Vite dev server runs in one process); use WORKERS=1`;
  if (!config.databaseUrl) {
    return `WORKERS=${workers} needs DATABASE_URL: the default database, PGlite, lives inside one process and cannot be shared. Point DATABASE_URL at a PostgreSQL server, or use WORKERS=1`;
  }
  return undefined;
}

/**
 * The primary process: forks the workers, restarts one that crashes, and on SIGTERM/SIGINT
 * passes SIGTERM on and exits once every worker has finished its requests and exited.
 */
export function runPrimary(workers: number, onAllListening: () => void): void {
  let stopping = false;
  let listening = 0;
  const restarts: number[] = [];
  const fork = () => {
    const worker = cluster.fork();
    worker.once('listening', () => {
      listening += 1;
      if (listening === workers) onAllListening();
    });
  };
  for (let i = 0; i < workers; i++) fork();

  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    log.error(
      { worker: worker.process.pid, exit: signal ?? code },
      `worker ${worker.process.pid} exited (${signal ?? code}); starting another`,
    );
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      log.fatal(`workers crashed ${restarts.length} times within a minute; stopping`);
      process.exit(1);
    }
    fork();
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping ${workers} workers after their requests in flight`);
    const alive = Object.values(cluster.workers ?? {});
    if (!alive.length) process.exit(0);
    for (const worker of alive) worker?.process.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
