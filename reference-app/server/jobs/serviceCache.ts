// The services a worker runs and creates check, kept between jobs (jobs/worker.ts,
// jobs/service.ts). A job never waits for a reload of a service it has read recently: an entry
// older than `freshMs` is answered as it is while one reload runs beside the job, and the jobs
// after it get the reloaded service. Only an entry
// older than `maxStaleMs` (or none) is waited for. Under load the reload is a round trip to the
// database, and waiting for it on the pickup path put one job in every `freshMs` at the pickup's
// tail (docs/jobs.md, "Speed"). A catalogue write that is announced clears the cache (`clear`).

interface Entry<T> {
  /** When the value being answered was asked for. */
  at: number;
  value: Promise<T>;
  /** The reload under way, if any (one at a time per key). */
  reloading?: Promise<T>;
}

/** More keys than this and the cache starts over: creates name any service id, existing or not. */
const MAX_ENTRIES = 1000;

export class ServiceCache<T> {
  readonly #entries = new Map<string, Entry<T>>();

  constructor(
    private readonly load: (key: string) => Promise<T>,
    private readonly freshMs: number,
    private readonly maxStaleMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): Promise<T> {
    const entry = this.#entries.get(key);
    const age = entry ? this.now() - entry.at : Infinity;
    if (entry && age < this.freshMs) return entry.value;
    if (entry && age < this.maxStaleMs) {
      entry.reloading ??= this.#reload(key, entry);
      return entry.value;
    }
    if (!entry && this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    const value = this.load(key);
    const fresh: Entry<T> = { at: this.now(), value };
    this.#entries.set(key, fresh);
    // A failed read is not kept: the next job reads again.
    value.catch(() => {
      if (this.#entries.get(key) === fresh) this.#entries.delete(key);
    });
    return value;
  }

  /** Forgets every entry: the next job of each service reads it again, and waits for it. */
  clear(): void {
    this.#entries.clear();
  }

  #reload(key: string, entry: Entry<T>): Promise<T> {
    const startedAt = this.now();
    const reloading = this.load(key);
    reloading.then(
      () => {
        // Replaced only if nothing newer took its place meanwhile (a clear, a fresh read).
        if (this.#entries.get(key) === entry) this.#entries.set(key, { at: startedAt, value: reloading });
      },
      () => {
        // The stale value stays until it is too old; the next job past freshMs tries again.
        if (this.#entries.get(key) === entry) entry.reloading = undefined;
      },
    );
    return reloading;
  }
}
