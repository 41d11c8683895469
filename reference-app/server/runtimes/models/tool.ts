import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { RuntimeError } from '../runtime';

// A model that runs as a program of its own (tesseract, espeak-ng): found once, then started per
// run as a child process, so the work never holds the server's event loop. Each child runs under
// an address-space ceiling (`ulimit -v`, the shell's setrlimit) and is killed when the job is
// cancelled or times out.

/** The absolute path of an executable named by path or looked up on PATH; undefined when there is none. */
export function locate(command: string, searchPath = process.env.PATH ?? ''): string | undefined {
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
export function runTool(binary: string, args: string[], run: ToolRun): Promise<Buffer> {
  run.signal.throwIfAborted();
  const kilobytes = run.memoryMb * 1024;
  // sh applies the ceiling to itself and `exec` hands it to the tool: no shell parses the arguments.
  const child = spawn('/bin/sh', ['-c', `ulimit -v ${kilobytes} && exec "$0" "$@"`, binary, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...run.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid !== undefined) run.onStart?.(child.pid);
  const name = path.basename(binary);
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    let size = 0;
    let errors = '';
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(run.signal.reason instanceof Error ? run.signal.reason : new Error(String(run.signal.reason)));
    run.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > run.maxOutputBytes) stop(new RuntimeError('output_too_large', `${name} produced more than ${run.maxOutputBytes} bytes`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString('utf8')).slice(-2000)));
    child.stdin.on('error', () => {}); // a child that exits early closes its input; its exit code tells why
    child.once('error', (error) => stop(new RuntimeError('model_unavailable', `${name} could not be started: ${error.message}`)));
    child.once('close', (code, signal) => {
      run.signal.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code === 0) return resolve(Buffer.concat(out));
      const last = errors.trim().split('\n').pop() ?? '';
      const memory = /alloc|mmap|memory|map segment/i.test(errors)
        ? ` (over the ${run.memoryMb} MB memory ceiling, LOCAL_MODEL_MEMORY_MB?)`
        : '';
      reject(new RuntimeError('model_failed', `${name} failed (${signal ?? `exit ${code}`})${memory}: ${last}`));
    });
    child.stdin.end(run.stdin ?? '');
  });
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
