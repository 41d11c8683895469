// Group commit for statements that must go one at a time (a user's job creates, checked against
// the same credits) or that are cheaper together (a worker's finishes, the hits of one rate-limit
// counter): the first item
// is written at once; items that arrive while a write of their key is in flight wait and then go
// together in the next write, one statement and one round trip for all of them. Under no load
// nothing waits; under load the waiting time is one statement, never a timer (docs/jobs.md: speed).

interface Waiting<T, R> {
  item: T;
  done(result: R): void;
  failed(error: unknown): void;
}

export class GroupCommit<T, R> {
  readonly #waiting = new Map<string, Array<Waiting<T, R>>>();

  /**
   * @param write writes items in one statement and answers one result per item, in order.
   * @param maxBatch the most items of one write.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
  ) {}

  /** Writes `item` with the others of `key` waiting at the same time. */
  add(key: string, item: T): Promise<R> {
    return new Promise<R>((done, failed) => {
      const waiting = this.#waiting.get(key);
      if (waiting) {
        waiting.push({ item, done, failed });
        return;
      }
      this.#waiting.set(key, [{ item, done, failed }]);
      void this.#drain(key);
    });
  }

  async #drain(key: string): Promise<void> {
    const waiting = this.#waiting.get(key)!;
    while (waiting.length) {
      const batch = waiting.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((w) => w.item));
        batch.forEach((w, i) => w.done(results[i]!));
      } catch (error) {
        if (batch.length === 1) batch[0]!.failed(error);
        // One bad item must not fail the others: each is written alone, and fails alone.
        else for (const w of batch) await this.write([w.item]).then(([result]) => w.done(result!), w.failed);
      }
    }
    this.#waiting.delete(key);
  }
}
