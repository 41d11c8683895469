import { Worker } from 'node:worker_threads';
import { messages } from '@electric-sql/pglite';
import { log } from '../log';

// PGlite in a worker thread of its own (db/pgliteWorker.mjs): its WebAssembly Postgres runs
// every statement synchronously, so in the server's thread each query stalled the event loop
// (500 SSE streams on PGlite: loop delay p99 0.7-0.9 s). This is the main thread's side: the
// `query` / `close` / `closed` / `onNotification` that db/pgliteDialect.ts and db/connect.ts
// used of PGlite itself, over messages. Rows come back parsed (the parsing runs in the worker
// too); bytea buffers are moved, not copied. Parameters are copied once by structured clone:
// they belong to the caller, who may still use them, so they cannot be moved.
//
// PGlite's own PGliteWorker is made for browsers: it needs Web Worker globals (self.postMessage,
// addEventListener) that node:worker_threads lacks, elects a leader among tabs with
// navigator.locks and BroadcastChannel, and parses the wire protocol in the calling thread,
// which would keep half the cost on our event loop.
//
// Should the thread die (an abort in the WebAssembly, an out-of-memory), the statements waiting
// fail as a lost database does (db/errors.ts: 503 with Retry-After), a transaction that was open
// is refused to its end (its BEGIN and earlier statements are gone with the thread), and the next
// statement starts a new thread on the same directory, with backoff, LISTENing again on every
// channel. An in-memory database cannot come back: it fails clearly instead.

/** A statement's answer, as PGlite's own query() gives it. */
export interface QueryResult<R> {
  rows: R[];
  affectedRows?: number;
  command?: string;
}

/** The subset of PGlite's interface the dialect and connect.ts use. */
export interface PGliteClient {
  readonly closed: boolean;
  query<R>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  close(): Promise<void>;
}

export interface PGliteThreadOptions {
  /** PGlite data directory; omitted means in memory (gone if the thread dies). */
  dataDir?: string;
  relaxedDurability?: boolean;
  /** The channels LISTENed to, LISTENed again in a restarted thread. */
  channels?: () => Iterable<string>;
}

interface Pending {
  resolve(result: QueryResult<unknown>): void;
  reject(error: Error): void;
}

type FromWorker =
  | { type: 'ready'; wasmModule?: WebAssembly.Module }
  | { type: 'failed'; error: SerializedError }
  | ({ type: 'result'; id: number } & QueryResult<unknown>)
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'notify'; channel: string; payload: string };

interface SerializedError {
  name?: string;
  message: string;
  stack?: string;
  /** A PostgreSQL error (PGlite's DatabaseError): rebuilt as one. */
  database?: boolean;
  fields: Record<string, unknown>;
}

const WORKER_URL = new URL('./pgliteWorker.mjs', import.meta.url);
/**
 * PGlite's compiled WebAssembly, from the first thread of this process to open a database; the
 * later ones (a restart after a crash, every test server after the first in a test process)
 * start from it instead of compiling and optimising Postgres again (pgliteWorker.mjs).
 */
let pgliteWasm: WebAssembly.Module | undefined;
/** First and longest wait before starting a thread again after one died or failed to start. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 5_000;
/** A thread that does not close in this long is ended. */
const CLOSE_TIMEOUT_MS = 10_000;

/** Matches db/errors.ts's "database unavailable": answered 503, and the health probe takes over. */
function unavailable(why: string): Error {
  return Object.assign(new Error(`${why}: database unavailable`), { code: '57P02' });
}

function rebuildError(serialized: SerializedError): Error {
  const error: Error = serialized.database
    ? new messages.DatabaseError(serialized.message, 0, 'error')
    : Object.assign(new Error(serialized.message), serialized.name ? { name: serialized.name } : {});
  Object.assign(error, serialized.fields);
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

// A statement that opens or ends a transaction, as db/pgliteDialect.ts sends them.
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback|end|abort)\b/i;

/**
 * A parameter as the worker must see it: an object with its own JSON form (a class instance
 * PGlite would JSON.stringify() for a json column) in that form, since structured clone drops
 * its prototype. Dates and binary data (a Buffer has a toJSON too) cross as they are.
 */
function cloneable(param: unknown): unknown {
  if (
    param &&
    typeof param === 'object' &&
    !(param instanceof Date) &&
    !ArrayBuffer.isView(param) &&
    typeof (param as { toJSON?: unknown }).toJSON === 'function'
  ) {
    return (param as { toJSON(): unknown }).toJSON();
  }
  return param;
}

export class PGliteThread implements PGliteClient {
  #worker: Worker | undefined;
  #starting: Promise<Worker> | undefined;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  #closing: Promise<void> | undefined;
  #notify = new Set<(channel: string, payload: string) => void>();
  /** A transaction is open on the current thread. */
  #inTransaction = false;
  /** The thread died inside a transaction: its statements are refused until its end. */
  #brokenTransaction = false;
  #restartDelay = RESTART_FIRST_MS;
  #nextStartAt = 0;
  /** Threads started, the first included (for tests and the log). */
  starts = 0;

  private constructor(private readonly options: PGliteThreadOptions) {}

  /** Starts the thread and opens (or creates) the database; rejects when it cannot. */
  static async start(options: PGliteThreadOptions): Promise<PGliteThread> {
    const thread = new PGliteThread(options);
    await thread.#ensureWorker();
    return thread;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs a statement with `$1`… parameters. PostgreSQL errors reject with their fields (code, detail…). */
  async query<R>(sql: string, params: unknown[] = []): Promise<QueryResult<R>> {
    if (this.#closed) throw new Error('PGlite is closed');
    if (this.#brokenTransaction) {
      if (!END.test(sql)) throw unavailable('the PGlite thread ended inside this transaction');
      this.#brokenTransaction = false;
      // Nothing is left to roll back; a COMMIT must not look like it succeeded.
      if (/^\s*rollback|^\s*abort/i.test(sql)) return { rows: [] };
      throw unavailable('the PGlite thread ended inside this transaction, which did not commit');
    }
    const result = this.#send<R>(await this.#ensureWorker(), sql, params);
    if (BEGIN.test(sql)) this.#inTransaction = true;
    else if (END.test(sql)) this.#inTransaction = false;
    return result;
  }

  #send<R>(worker: Worker, sql: string, params: unknown[]): Promise<QueryResult<R>> {
    const id = this.#nextId++;
    const result = new Promise<QueryResult<R>>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as Pending['resolve'], reject });
    });
    try {
      worker.postMessage({ type: 'query', id, sql, params: params.map(cloneable) });
    } catch (error) {
      // A parameter structured clone cannot carry (a function, a symbol).
      this.#pending.delete(id);
      return Promise.reject(error as Error);
    }
    // Keeps the process up while a statement is out, as a synchronous PGlite call did.
    if (this.#pending.size === 1) worker.ref();
    return result;
  }

  /** Runs `listener` on every notification of a channel LISTENed to; answers the function that stops it. */
  onNotification(listener: (channel: string, payload: string) => void): () => void {
    this.#notify.add(listener);
    return () => this.#notify.delete(listener);
  }

  /** Ends the thread at once, as a crash would (fault tests). */
  async kill(): Promise<void> {
    await this.#worker?.terminate();
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker ?? (await this.#starting?.catch(() => undefined));
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
      worker.once('exit', () => (clearTimeout(timer), resolve()));
      worker.ref();
      worker.postMessage({ type: 'close' });
    });
  }

  #ensureWorker(): Promise<Worker> {
    if (this.#worker) return Promise.resolve(this.#worker);
    if (this.#starting) return this.#starting;
    if (this.starts > 0 && !this.options.dataDir) {
      return Promise.reject(unavailable('the PGlite thread ended and its in-memory database with it'));
    }
    if (Date.now() < this.#nextStartAt) return Promise.reject(unavailable('the PGlite thread is restarting'));
    this.#starting = this.#spawn().then(
      (worker) => {
        this.#starting = undefined;
        this.#worker = worker;
        this.#restartDelay = RESTART_FIRST_MS;
        return worker;
      },
      (error: unknown) => {
        this.#starting = undefined;
        this.#nextStartAt = Date.now() + this.#restartDelay;
        this.#restartDelay = Math.min(RESTART_MAX_MS, this.#restartDelay * 2);
        throw error;
      },
    );
    return this.#starting;
  }

  #spawn(): Promise<Worker> {
    this.starts += 1;
    const worker = new Worker(WORKER_URL, {
      workerData: {
        dataDir: this.options.dataDir,
        relaxedDurability: this.options.relaxedDurability ?? false,
        wasmModule: pgliteWasm,
      },
    });
    return new Promise<Worker>((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          ready = true;
          pgliteWasm ??= message.wasmModule;
          worker.unref();
          resolve(
            this.#relisten(worker).catch(async (error: unknown) => {
              await worker.terminate();
              throw error;
            }),
          );
        } else if (message.type === 'failed') reject(rebuildError(message.error));
        else this.#answer(message, worker);
      });
      // An uncaught exception in the thread; 'exit' follows.
      worker.on('error', (error) => {
        if (!ready) reject(error);
        else log.error({ err: error }, 'the PGlite thread failed');
      });
      worker.on('exit', (code) => {
        if (!ready) return reject(unavailable(`the PGlite thread exited with code ${code} while opening the database`));
        this.#died(worker, code);
      });
    });
  }

  /** A restarted thread LISTENs again, before any other statement runs on it. */
  async #relisten(worker: Worker): Promise<Worker> {
    if (this.starts === 1) return worker;
    for (const channel of this.options.channels?.() ?? []) await this.#send(worker, `LISTEN ${channel}`, []);
    log.info({ starts: this.starts }, 'the PGlite thread started again');
    return worker;
  }

  #answer(message: FromWorker, worker: Worker): void {
    if (message.type === 'notify') {
      for (const listener of this.#notify) listener(message.channel, message.payload);
      return;
    }
    if (message.type !== 'result' && message.type !== 'error') return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (this.#pending.size === 0) worker.unref();
    if (message.type === 'result') pending.resolve({ rows: message.rows, affectedRows: message.affectedRows, command: message.command });
    else pending.reject(rebuildError(message.error));
  }

  #died(worker: Worker, code: number): void {
    if (this.#worker === worker) this.#worker = undefined;
    if (this.#closed) {
      for (const pending of this.#pending.values()) pending.reject(new Error('PGlite is closed'));
      this.#pending.clear();
      return;
    }
    log.error({ code }, 'the PGlite thread exited: requests answer 503 until it is started again');
    this.#brokenTransaction = this.#inTransaction;
    this.#inTransaction = false;
    const error = unavailable(`the PGlite thread exited with code ${code}`);
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
    // The next statement (a request's, or the health probe's) starts it again, with backoff.
    this.#nextStartAt = Date.now() + this.#restartDelay;
  }
}
