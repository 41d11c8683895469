// In-memory fixed-window counters per client IP and endpoint bucket. Each server process counts
// on its own; behind a load balancer the effective limit is the per-process limit times the
// number of processes, which is fine for limits meant to stop abuse rather than to meter.

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
}

export class RateLimiter {
  #windows = new Map<string, { start: number; count: number }>();
  #lastSweep = Date.now();

  constructor(private readonly windowSeconds: number) {}

  /** Counts one hit; a limit of 0 means unlimited. */
  hit(bucket: string, clientKey: string, limit: number): RateDecision {
    if (limit <= 0) return { allowed: true, retryAfter: 0 };
    const now = Date.now();
    const windowMs = this.windowSeconds * 1000;
    this.#sweep(now, windowMs);
    const key = `${bucket}\u0000${clientKey}`;
    let entry = this.#windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      entry = { start: now, count: 0 };
      this.#windows.set(key, entry);
    }
    entry.count += 1;
    const retryAfter = Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000));
    return { allowed: entry.count <= limit, retryAfter };
  }

  #sweep(now: number, windowMs: number) {
    if (now - this.#lastSweep < windowMs) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#windows) if (now - entry.start >= windowMs) this.#windows.delete(key);
  }
}
