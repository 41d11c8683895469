import { spawn, type ChildProcess } from 'node:child_process';

// Model programs are started by a small helper process, not by the server itself: starting a
// child forks the calling process, and a fork of the server (hundreds of MB mapped) held its
// event loop 15–70 ms per run when measured (issue 38: under 50 ms). The helper is a bare Node
// process (about 40 MB) started once, on the first model run, and forks in well under a
// millisecond; it ends with the server (its IPC channel closes). Messages use Node's advanced
// serialisation, so input and output bytes travel as buffers, not text.

/**
 * One program run as the helper does it: the ceiling applied by sh's `ulimit -v` before `exec`,
 * at nice 10, so on a busy machine the server's requests get the CPU before a model does.
 */
export interface SpawnRequest {
  binary: string;
  args: string[];
  stdin: Uint8Array;
  env: Record<string, string>;
  memoryKb: number;
  maxOutputBytes: number;
}

export interface SpawnOutcome {
  code: number | null;
  signal: string | null;
  stdout: Uint8Array;
  /** The last 2000 characters written to standard error. */
  stderr: string;
  tooLarge: boolean;
  /** Set when the program could not be started at all. */
  error?: string;
}

// The helper's source: self-contained, run with `node -e`, so the built server needs no extra file.
const HELPER = `
const { spawn } = require('node:child_process');
const running = new Map();
// A server that has gone cannot be answered: the callback takes the error instead of a crash.
const send = (message) => process.connected && process.send(message, () => {});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
process.on('message', (m) => {
  if (m.kill !== undefined) return running.get(m.kill)?.kill('SIGKILL');
  const r = m.run;
  const child = spawn('/bin/sh', ['-c', 'ulimit -v ' + r.memoryKb + ' && exec nice -n 10 "$0" "$@"', r.binary, ...r.args], {
    env: r.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.set(m.id, child);
  if (child.pid !== undefined) send({ id: m.id, pid: child.pid });
  const out = [];
  let size = 0;
  let stderr = '';
  let tooLarge = false;
  let error;
  child.stdout.on('data', (chunk) => {
    size += chunk.length;
    if (size > r.maxOutputBytes) { tooLarge = true; child.kill('SIGKILL'); } else out.push(chunk);
  });
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk.toString('utf8')).slice(-2000); });
  child.stdin.on('error', () => {});
  child.on('error', (e) => { error = e.message; });
  child.on('close', (code, signal) => {
    running.delete(m.id);
    send({ id: m.id, done: { code, signal, stdout: Buffer.concat(out), stderr, tooLarge, error } });
  });
  child.stdin.end(Buffer.from(r.stdin));
});
`;

interface Pending {
  resolve(outcome: SpawnOutcome): void;
  reject(error: Error): void;
  onStart?: (pid: number) => void;
}

let helper: ChildProcess | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function started(): ChildProcess {
  if (helper?.connected) return helper;
  const child = spawn(process.execPath, ['-e', HELPER], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
  child.on('message', (message: { id: number; pid?: number; done?: SpawnOutcome }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    if (message.pid !== undefined) return waiting.onStart?.(message.pid);
    pending.delete(message.id);
    holdOpen(child);
    waiting.resolve({ ...message.done!, stdout: new Uint8Array(message.done!.stdout) });
  });
  child.once('exit', () => {
    if (helper === child) helper = undefined;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(new Error('the model helper process ended'));
    }
  });
  // The helper keeps the server alive only while a run waits for it (holdOpen); it ends when the
  // server's end closes the channel.
  child.unref();
  helper = child;
  holdOpen(child);
  return child;
}

/** The IPC channel keeps this process alive exactly while runs are pending. */
function holdOpen(child: ChildProcess) {
  if (pending.size > 0) child.channel?.ref();
  else child.channel?.unref();
}

/** Runs a program through the helper; `signal` kills it. Resolves however it ended. */
export function spawnViaHelper(request: SpawnRequest, signal: AbortSignal, onStart?: (pid: number) => void): Promise<SpawnOutcome> {
  const child = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onAbort = () => child.connected && child.send({ kill: id });
    signal.addEventListener('abort', onAbort, { once: true });
    const done =
      <T>(settle: (value: T) => void) =>
      (value: T) => {
        signal.removeEventListener('abort', onAbort);
        settle(value);
      };
    pending.set(id, { resolve: done(resolve), reject: done(reject), onStart });
    holdOpen(child);
    child.send({ id, run: request });
  });
}
