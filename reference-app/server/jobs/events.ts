import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

// Job notifications over pg_notify, so every server process sharing one PostgreSQL hears them
// (PGlite delivers them in-process the same way). Payloads: `q:<origin>` (a job was queued or a
// slot freed, by the process whose JobEvents has that origin; plain `q` from older servers),
// `c:<job id>:<version>` (a job changed), `x:<job id>` (cancel requested), `l:<job id>`
// (a container wrote log lines for the job: hosting/deploymentLogs.ts). Delivery is best
// effort: workers and streams also poll (streams rarely, stream.ts), so a lost notification only
// delays, and a listener that comes back calls `resync`. The statements
// that send them are in queries.ts (the notification goes in the same statement as the change).
// A process wakes its own worker at once when it queues work or frees a slot (`queuedHere`) and
// ignores the notification of its own change when it comes back: one claim round, not two.

/** The notification channel of one database schema's jobs. */
export const jobEventsChannel = (schema: string | undefined) => `lime_jobs_${schema ?? 'public'}`.slice(0, 63);

export class JobEvents {
  readonly #emitter = new EventEmitter();
  readonly channel: string;
  /** Names this process's own `q` notifications. */
  readonly origin = randomUUID().slice(0, 8);

  constructor(schema: string | undefined) {
    this.channel = jobEventsChannel(schema);
    this.#emitter.setMaxListeners(0);
  }

  /** Feeds one notification payload (from the database listener). */
  dispatch(payload: string): void {
    if (payload === 'q' || (payload.startsWith('q:') && payload.slice(2) !== this.origin)) this.#emitter.emit('queued');
    else if (payload.startsWith('c:')) {
      const [, jobId, version] = payload.split(':');
      this.#emitter.emit(`changed:${jobId}`, Number(version));
    } else if (payload.startsWith('x:')) this.#emitter.emit('cancel', payload.slice(2));
    else if (payload.startsWith('l:')) this.#emitter.emit(`logged:${payload.slice(2)}`);
  }

  /** Work may be waiting because of a change this process made: its worker claims now. */
  queuedHere(): void {
    this.#emitter.emit('queued');
  }

  /**
   * The listener was away (LISTEN reconnected, the database came back): notifications may have
   * been lost, so the worker claims and every open stream re-reads its job now.
   */
  resync(): void {
    this.#emitter.emit('queued');
    this.#emitter.emit('resync');
  }

  onResync(listener: () => void): () => void {
    this.#emitter.on('resync', listener);
    return () => this.#emitter.off('resync', listener);
  }

  onQueued(listener: () => void): () => void {
    this.#emitter.on('queued', listener);
    return () => this.#emitter.off('queued', listener);
  }

  onChanged(jobId: string, listener: (version: number) => void): () => void {
    this.#emitter.on(`changed:${jobId}`, listener);
    return () => this.#emitter.off(`changed:${jobId}`, listener);
  }

  onLogged(jobId: string, listener: () => void): () => void {
    this.#emitter.on(`logged:${jobId}`, listener);
    return () => this.#emitter.off(`logged:${jobId}`, listener);
  }

  onCancel(listener: (jobId: string) => void): () => void {
    this.#emitter.on('cancel', listener);
    return () => this.#emitter.off('cancel', listener);
  }
}

/** Resolves after `ms`, or earlier when `signal` aborts or `wake` is called. */
export function sleep(ms: number, signal?: AbortSignal): { promise: Promise<void>; wake(): void } {
  let wake!: () => void;
  const promise = new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    wake = done;
    signal?.addEventListener('abort', done, { once: true });
  });
  return { promise, wake };
}
