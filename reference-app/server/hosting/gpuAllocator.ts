import { EngineError } from './engine';

// The runner's GPUs, one owner at a time (docs/publishing.md, "Resources"). The host's devices
// are named by CONTAINER_GPUS (their CDI names, `nvidia.com/gpu=<index>`); every container that
// asks for GPUs takes its own of them when it is created and gives them back when it is removed,
// so two instances never share a device and none is given all of them. A container that finds
// too few free waits, first come first served, as a job waits for a slot; a spare of the warm
// pool never waits and gives its devices up as soon as an instance waits for them.

/** The devices one container holds, until `release()` (safe to call twice). */
export interface GpuLease {
  readonly devices: readonly string[];
  /**
   * Marks the holder as a spare of the warm pool (`reclaim` removes it, which releases the lease)
   * or, with null, as serving again. A spare's devices go to the first container that waits.
   */
  setReclaim(reclaim: (() => void) | null): void;
  release(): void;
}

export interface GpuWaitOptions {
  /** Aborted: the wait ends with an error (the deployment stopped, the spare is no longer wanted). */
  signal?: AbortSignal;
  /** Called once, when the request has to wait: the runner's log says so. */
  onWait?: (message: string) => void;
}

interface Holder {
  devices: string[];
  reclaim: (() => void) | null;
  reclaiming: boolean;
}

interface Waiter {
  count: number;
  grant: (lease: GpuLease) => void;
}

const plural = (n: number) => `${n} GPU${n === 1 ? '' : 's'}`;

export class GpuAllocator {
  private readonly free: string[];
  private readonly holders = new Set<Holder>();
  private waiters: Waiter[] = [];

  /** `devices`: the host's GPUs by their CDI device names (CONTAINER_GPUS, e.g. ["0", "1"]). */
  constructor(readonly devices: readonly string[]) {
    if (new Set(devices).size !== devices.length) throw new Error(`GPU devices named twice: ${devices.join(',')}`);
    this.free = [...devices];
  }

  /** The devices no container holds, in the order CONTAINER_GPUS names them. */
  get available(): string[] {
    return this.devices.filter((d) => this.free.includes(d));
  }

  /** How many containers wait for devices. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** `count` devices now, or null when too few are free or others already wait (a spare never queues). */
  tryAcquire(count: number): GpuLease | null {
    this.checkCount(count);
    if (this.waiters.length > 0 || this.free.length < count) return null;
    return this.take(count);
  }

  /**
   * `count` devices for one container: at once when free, else after the containers that waited
   * before it. Fails at once when the runner has fewer than `count` in all (it would wait forever).
   */
  acquire(count: number, options: GpuWaitOptions = {}): Promise<GpuLease> {
    this.checkCount(count);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const now = this.tryAcquire(count);
    if (now) return Promise.resolve(now);
    return new Promise<GpuLease>((resolve, reject) => {
      const waiter: Waiter = {
        count,
        grant: (lease) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(lease);
        },
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(abortError(signal!));
        // The head of the queue may have been the one too big to serve: the next may fit now.
        this.grantWaiters();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      options.onWait?.(
        `Waiting for ${plural(count)}: ${this.free.length} of this runner's ${this.devices.length} free, ${this.waiters.length} waiting`,
      );
      this.reclaimSpares();
    });
  }

  private checkCount(count: number): void {
    if (!Number.isInteger(count) || count < 1) throw new Error(`a GPU request is a whole number of at least 1, got ${count}`);
    if (count > this.devices.length) {
      throw new EngineError(
        'capacity',
        `The service asks for ${plural(count)} per instance and this runner has ${this.devices.length} (CONTAINER_GPUS=${this.devices.join(',')})`,
      );
    }
  }

  private take(count: number): GpuLease {
    const holder: Holder = { devices: this.free.splice(0, count), reclaim: null, reclaiming: false };
    this.holders.add(holder);
    let released = false;
    return {
      devices: holder.devices,
      setReclaim: (reclaim) => {
        holder.reclaim = reclaim;
        // Became a spare while a container waits: it goes at once.
        if (reclaim) this.reclaimSpares();
      },
      release: () => {
        if (released) return;
        released = true;
        this.holders.delete(holder);
        this.free.push(...holder.devices);
        this.free.sort((a, b) => this.devices.indexOf(a) - this.devices.indexOf(b));
        this.grantWaiters();
      },
    };
  }

  /** Serves waiting containers in order while the first of them fits. */
  private grantWaiters(): void {
    while (this.waiters.length > 0 && this.free.length >= this.waiters[0]!.count) {
      const waiter = this.waiters.shift()!;
      waiter.grant(this.take(waiter.count));
    }
    this.reclaimSpares();
  }

  /** Removes spares until the devices free or being freed cover the first waiter. */
  private reclaimSpares(): void {
    const head = this.waiters[0];
    if (!head) return;
    let coming = this.free.length + [...this.holders].filter((h) => h.reclaiming).reduce((n, h) => n + h.devices.length, 0);
    for (const holder of this.holders) {
      if (coming >= head.count) return;
      if (!holder.reclaim || holder.reclaiming) continue;
      holder.reclaiming = true;
      coming += holder.devices.length;
      holder.reclaim();
    }
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new EngineError('capacity', 'The wait for a GPU was cancelled');
}
