import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { RuntimeError } from '../runtime';
import { DEFAULT_SEARCH_PATH } from './config';
import { spawnViaHelper } from './spawner';

// A model that runs as a program of its own (tesseract, espeak-ng): found once, then started per
// run as a child process (by the helper of spawner.ts), so the work never holds the server's
// event loop. Each child runs under an address-space ceiling (`ulimit -v`, the shell's setrlimit)
// and is killed when the job is cancelled or times out.

/** The absolute path of an executable named by path or looked up on PATH; undefined when there is none. */
export function locate(command: string, searchPath: string): string | undefined {
  const candidates = command.includes('/')
    ? [command]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return path.resolve(candidate);
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface ToolRun {
  /** Written to the child's standard input, then closed. */
  stdin?: Uint8Array | string;
  signal: AbortSignal;
  /** Address-space ceiling of the child, in megabytes. */
  memoryMb: number;
  /** Extra environment (e.g. OMP_THREAD_LIMIT). */
  env?: Record<string, string>;
  /** Output beyond this is refused (the child is killed). */
  maxOutputBytes: number;
  /** Told the child's pid once it started (the models bench samples its memory). */
  onStart?: (pid: number) => void;
}

/** Runs `binary args` under the memory ceiling; its standard output, or a RuntimeError with its last error line. */
export async function runTool(binary: string, args: string[], run: ToolRun): Promise<Buffer> {
  run.signal.throwIfAborted();
  const name = path.basename(binary);
  const stdin = typeof run.stdin === 'string' ? Buffer.from(run.stdin, 'utf8') : (run.stdin ?? new Uint8Array());
  const outcome = await spawnViaHelper(
    {
      binary,
      args,
      stdin,
      env: { PATH: DEFAULT_SEARCH_PATH, LANG: 'C.UTF-8', ...run.env },
      memoryKb: run.memoryMb * 1024,
      maxOutputBytes: run.maxOutputBytes,
    },
    run.signal,
    run.onStart,
  );
  run.signal.throwIfAborted();
  if (outcome.error) throw new RuntimeError('model_unavailable', `${name} could not be started: ${outcome.error}`);
  if (outcome.tooLarge) throw new RuntimeError('output_too_large', `${name} produced more than ${run.maxOutputBytes} bytes`);
  if (outcome.code === 0) return Buffer.from(outcome.stdout.buffer, outcome.stdout.byteOffset, outcome.stdout.byteLength);
  const last = outcome.stderr.trim().split('\n').pop() ?? '';
  const memory = /alloc|mmap|memory|map segment/i.test(outcome.stderr)
    ? ` (over the ${run.memoryMb} MB memory ceiling, LOCAL_MODEL_MEMORY_MB?)`
    : '';
  throw new RuntimeError('model_failed', `${name} failed (${outcome.signal ?? `exit ${outcome.code}`})${memory}: ${last}`);
}

/** Runs at most `limit` tasks at once; the others wait in order (and leave the line when aborted). */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  /** A finished task hands its slot to the first in line, so no newcomer can slip in between. */
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const acquire = (signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (running < limit) {
        running++;
        return resolve();
      }
      const take = () => {
        signal.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        waiting.splice(waiting.indexOf(take), 1);
        reject(signal.reason);
      };
      waiting.push(take);
      signal.addEventListener('abort', leave, { once: true });
    });
  return {
    /** Runs now plus those waiting: how busy the model is. */
    get load() {
      return running + waiting.length;
    },
    async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
      signal.throwIfAborted();
      await acquire(signal);
      try {
        signal.throwIfAborted();
        return await task();
      } finally {
        release();
      }
    },
  };
}
