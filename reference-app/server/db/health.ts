import { log } from '../log';
import { isDatabaseUnavailable } from './errors';

// Whether the database answers, as this process last saw it (docs/deploy.md, "When the database
// goes away"). Every pooled query and connection reports here; the first connection failure
// marks the database lost (one log line, not one per request) and starts a probe that retries
// with backoff, so a process with no traffic still notices the database is back: then the
// `restored` listeners run (the job worker claims at once, streams and caches re-read).
// /health/ready and /metrics read it.

/** First and longest wait between probes while the database is lost. */
const PROBE_FIRST_MS = 250;
const PROBE_MAX_MS = 5_000;

export class DatabaseHealth {
  #lostSince: number | undefined;
  #probeDelay = PROBE_FIRST_MS;
  #probeTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #restored = new Set<() => void>();
  /** Connection errors seen (a lost socket, a refused connect), for /metrics. */
  errors = 0;
  /** Times the database came back after being lost. */
  reconnects = 0;

  /** @param probe answers when the database does (a `select 1`); rejects otherwise. */
  constructor(private readonly probe: () => Promise<unknown>) {}

  get available(): boolean {
    return this.#lostSince === undefined;
  }

  /** Seconds a caller should wait before trying again: the probe's next attempt, at least 1. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.#probeDelay / 1000));
  }

  /** Runs `listener` each time the database is back; answers the function that stops it. */
  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => this.#restored.delete(listener);
  }

  /** A query or connection failed: counts it, and when it says the database is gone, marks it lost. */
  failed(error: unknown): void {
    if (!isDatabaseUnavailable(error)) return;
    this.errors += 1;
    if (this.#lostSince !== undefined || this.#closed) return;
    this.#lostSince = Date.now();
    this.#probeDelay = PROBE_FIRST_MS;
    log.warn({ err: error }, 'the database is unreachable: requests answer 503 until it is back');
    this.#scheduleProbe();
  }

  /** A query succeeded: the database is back if it was lost. */
  succeeded(): void {
    if (this.#lostSince === undefined) return;
    const downMs = Date.now() - this.#lostSince;
    this.#lostSince = undefined;
    clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
    this.reconnects += 1;
    log.info({ downMs }, `the database is back after ${downMs} ms`);
    for (const listener of this.#restored) {
      try {
        listener();
      } catch (error) {
        log.error({ err: error }, 'a database-restored listener failed');
      }
    }
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#probeTimer);
  }

  #scheduleProbe(): void {
    if (this.#closed) return;
    this.#probeTimer = setTimeout(() => {
      this.probe().then(
        () => this.succeeded(),
        () => {
          if (this.#lostSince === undefined) return;
          this.#probeDelay = Math.min(PROBE_MAX_MS, this.#probeDelay * 2);
          this.#scheduleProbe();
        },
      );
    }, this.#probeDelay);
    this.#probeTimer.unref();
  }
}
