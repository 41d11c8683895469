import { Worker, type ResourceLimits } from 'node:worker_threads';

// Work on large data (parsing a 45 MB JSON answer, serialising it again, parsing a 25 MB
// multipart upload) takes the event loop for 0.5–6 s when done on it: every request, heartbeat
// and stream of the process waits meanwhile (docs/jobs.md, "Large results and uploads"). Such
// work runs in a worker thread of its own instead, one per task: a task is rare (only data over
// a megabyte takes this path), and a thread that ends with its task leaves no state behind.
//
// A task is a SELF-CONTAINED function (it is sent to the thread as source text: it may use only
// its arguments, globals and `require`), given its input, `ask`, which sends a request back to
// the main thread (e.g. "store these media files") and resolves with the answer, and `helpers`:
// self-contained functions the main thread uses too, sent along, so a rule is written once.

/** What a task answers: its value and the buffers to move (not copy) back to the main thread. */
export interface TaskResult<O> {
  value: O;
  transfer?: ArrayBuffer[];
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- any self-contained function may be sent
export type Helpers = Record<string, Function>;

export type ThreadTask<I, O, H extends Helpers = Helpers> = (
  input: I,
  ask: (request: unknown, transfer?: ArrayBuffer[]) => Promise<unknown>,
  helpers: H,
) => Promise<TaskResult<O>>;

export class DataThreadError extends Error {
  override name = 'DataThreadError';
}

// __name: what esbuild's keepNames (tsx, the server bundle) wraps functions in; the thread has none.
const threadSource = (task: string, helpers: Helpers) => `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (fn) => fn;
const task = (${task});
const helpers = { ${Object.entries(helpers)
  .map(([name, fn]) => `${JSON.stringify(name)}: (${fn.toString()})`)
  .join(', ')} };
let nextCall = 0;
const waiting = new Map();
parentPort.on('message', (message) => {
  const resolve = waiting.get(message.reply);
  waiting.delete(message.reply);
  if (resolve) resolve(message.value);
});
const ask = (request, transfer) =>
  new Promise((resolve) => {
    const id = nextCall++;
    waiting.set(id, resolve);
    parentPort.postMessage({ call: id, request }, transfer || []);
  });
Promise.resolve()
  .then(() => task(workerData, ask, helpers))
  .then(
    (result) => parentPort.postMessage({ done: result.value }, result.transfer || []),
    (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }),
  );
`;

/** A buffer's memory when it can be moved to another thread (it owns all of it), for a transfer list. */
export function movable(bytes: Uint8Array): ArrayBuffer[] {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}

/**
 * Runs `task` in a new worker thread with `input` (its `transfer` buffers moved, not copied);
 * `answer` serves the task's requests on this thread. A failing task rejects with its message;
 * an abort ends the thread at once.
 */
export function runInThread<I, O, H extends Helpers>(
  task: ThreadTask<I, O, H>,
  input: I,
  options: {
    helpers?: H;
    transfer?: ArrayBuffer[];
    answer?: (request: unknown) => Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;
    signal?: AbortSignal;
    /** Caps the thread's heap (a model's memory ceiling, runtimes/models); over it, the task fails. */
    resourceLimits?: ResourceLimits;
  } = {},
): Promise<O> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<O>((resolve, reject) => {
    const worker = new Worker(threadSource(task.toString(), options.helpers ?? {}), {
      eval: true,
      workerData: input,
      transferList: options.transfer,
      resourceLimits: options.resourceLimits,
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: { call?: number; request?: unknown; done?: O; failed?: string }) => {
      if (message.call !== undefined) {
        const served = options.answer ? options.answer(message.request) : Promise.reject(new Error('This task cannot ask anything'));
        served.then(
          (reply) => !settled && worker.postMessage({ reply: message.call, value: reply.value }, reply.transfer ?? []),
          (error: unknown) => settle(() => reject(error)),
        );
      } else if ('failed' in message) settle(() => reject(new DataThreadError(message.failed)));
      else settle(() => resolve(message.done as O));
    });
    worker.on('error', (error) => settle(() => reject(new DataThreadError(error.message, { cause: error }))));
    worker.on('exit', (code) => settle(() => reject(new DataThreadError(`The data thread stopped (exit code ${code})`))));
  });
}
