// Open job streams (GET /v1/jobs/{id}/stream) per user and server process. Each stream holds a
// connection and polls the database, so one account opening thousands would starve everyone
// else; past the cap a new stream answers 429 until one closes (docs/security.md, "Limits").

export class OpenStreams {
  readonly #open = new Map<string, number>();
  constructor(readonly perUser: number) {}

  /** A release function for a new stream of this user, or undefined when they are at the cap. */
  acquire(userId: string): (() => void) | undefined {
    const open = this.#open.get(userId) ?? 0;
    if (this.perUser > 0 && open >= this.perUser) return undefined;
    this.#open.set(userId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(userId) ?? 1) - 1;
      if (left > 0) this.#open.set(userId, left);
      else this.#open.delete(userId);
    };
  }
}
