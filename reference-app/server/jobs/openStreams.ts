// Open job streams (GET /v1/jobs/{id}/stream) per server process. Each stream holds a connection
// and a notification listener, and re-reads its job now and then (jobs/stream.ts), so one account
// opening thousands would starve everyone else: past the per-user cap a new stream answers 429
// until one of theirs closes (docs/security.md, "Limits"). The total cap bounds what the process
// holds for all users together: past it a new stream answers 503 with Retry-After, because the
// server is full rather than the caller over their share (docs/jobs.md, "Streaming").

export type StreamRefusal = 'user' | 'server';

export class OpenStreams {
  readonly #open = new Map<string, number>();
  #total = 0;
  constructor(
    readonly perUser: number,
    /** All users' streams at once on this process; 0: no cap. */
    readonly total = 0,
  ) {}

  /** Streams open now on this process. */
  get open(): number {
    return this.#total;
  }

  /** A release function for a new stream of this user, or which cap refuses it. */
  acquire(userId: string): { release: () => void } | { refused: StreamRefusal } {
    const open = this.#open.get(userId) ?? 0;
    if (this.perUser > 0 && open >= this.perUser) return { refused: 'user' };
    if (this.total > 0 && this.#total >= this.total) return { refused: 'server' };
    this.#open.set(userId, open + 1);
    this.#total++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#total--;
        const left = (this.#open.get(userId) ?? 1) - 1;
        if (left > 0) this.#open.set(userId, left);
        else this.#open.delete(userId);
      },
    };
  }
}
