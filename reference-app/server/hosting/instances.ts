import type { HostCapacity } from './capacity';
import type { GpuAllocator, GpuLease } from './gpuAllocator';
import { type ContainerEngine, EngineError, waitReady, type InstanceSpec, type PulledImage } from './engine';
import type { LogRing } from './logRing';
import type { Restored } from './snapshots/runsc';
import { snapshotKey, type SnapshotTier } from './snapshots/tier';

// Bringing one instance of a deployment from nothing to "answers requests", and the warm pool
// that makes that fast (docs/publishing.md, "Cold starts"). A cold start is timed from the
// moment a job finds no running instance to the moment the instance passes its health check;
// its stages are reported so the log shows where the time went.

/**
 * What is kept ready while a deployment has no running instance:
 * - `paused`: a started, healthy container frozen by the engine (cgroup freezer): no CPU, its
 *   memory kept; a cold start is unpause + one health answer;
 * - `created`: a created, never started container: no CPU, no memory; a cold start is start +
 *   the service's own start-up + health;
 * - `none`: nothing; a cold start is create + start + health (the baseline).
 */
export type WarmStrategy = 'paused' | 'created' | 'none';
export const WARM_STRATEGIES: readonly WarmStrategy[] = ['paused', 'created', 'none'];

export interface Instance {
  id: string;
  /** A short name for logs: the container id's first 12 characters. */
  name: string;
  baseUrl: string;
}

/** Where a cold start came from: a memory snapshot, the paused or created pool, or the image. */
export type ColdStartTier = 'snapshot' | 'paused' | 'created' | 'image';

export interface ColdStart {
  instance: Instance;
  coldStartMs: number;
  /** Milliseconds per stage: create, start, unpause, restore, ready (only those that ran). */
  stages: Record<string, number>;
  tier: ColdStartTier;
}

export interface InstanceOptions {
  healthPath: string;
  readyTimeoutMs: number;
  logs?: LogRing;
  /** Each container reserves its memory limit here first (the runner's capacity). */
  capacity?: HostCapacity;
  /**
   * The runner's GPUs (CONTAINER_GPUS): a container of a GPU service takes its own devices first,
   * waiting for them when all are held; a spare is made only from free ones.
   */
  gpus?: GpuAllocator;
  /**
   * false: no container is created until pin() names the image by the digest the deployment's
   * own pull resolved (Deployment). Tests and benchmarks of a local image leave it true.
   */
  pinned?: boolean;
  /**
   * The runner's snapshot tier (CONTAINER_SNAPSHOTS=on under gVisor; absent for a service with
   * `snapshot: false`): a start from zero restores the digest's snapshot, and the first cold start
   * of a digest has it taken (docs/deploy.md, "Snapshot cold starts").
   */
  snapshots?: SnapshotTier;
  /** Told when the digest's snapshot is taken (its size and time), for the deployment's report. */
  onSnapshot?: (snapshot: { bytes: number; takenAt: Date }) => void;
}

interface Spare {
  id: string;
  state: 'created' | 'paused';
  baseUrl?: string;
}

/** Creates, readies and parks the instances of one deployment. */
export class InstanceFactory {
  private spares: Spare[] = [];
  private replenishing: Promise<void> | null = null;
  private closed = false;
  private stopLogs = new Map<string, () => void>();
  private releases = new Map<string, () => void>();
  /** Each container's GPU devices (a spare's may be reclaimed for an instance that waits). */
  private gpuLeases = new Map<string, GpuLease>();
  /** Aborted when the factory closes: a container still waiting for a GPU never comes. */
  private readonly closing = new AbortController();
  private spec: InstanceSpec;
  private pinned: boolean;
  /** Instances restored from a snapshot (runsc sandboxes beside the engine), by instance id. */
  private restored = new Map<string, Restored>();

  constructor(
    private readonly engine: ContainerEngine,
    spec: InstanceSpec,
    private readonly options: InstanceOptions,
  ) {
    this.spec = spec;
    this.pinned = options.pinned ?? true;
  }

  /** From now on containers are created from the pulled image, by digest, with its VOLUMEs as tmpfs. */
  pin(image: PulledImage): void {
    this.spec = { ...this.spec, image: image.reference, volumes: image.volumes };
    this.pinned = true;
  }

  /**
   * Creates one container: only from a pinned image, with its own GPU devices when the service
   * asks for some (waiting for them; a spare takes only free ones, else none is made: null), and
   * only with room on the runner.
   */
  private async create(spare = false): Promise<string | null> {
    if (!this.pinned) throw new EngineError('pull', `No container starts before the deployment's own pull of ${this.spec.image} succeeded`);
    const gpus = this.spec.limits.gpus ?? 0;
    if (gpus > 0 && this.spec.gpu === 'none') {
      throw new EngineError(
        'create',
        `The service asks for ${gpus} GPU${gpus === 1 ? '' : 's'} per instance and this runner has none (CONTAINER_GPU is not set); declare gpu 0 to run it on CPUs`,
      );
    }
    const allocator = gpus > 0 ? this.options.gpus : undefined;
    let lease: GpuLease | null = null;
    if (allocator && spare) {
      lease = allocator.tryAcquire(gpus);
      if (!lease) return null;
    } else if (allocator) {
      lease = await allocator.acquire(gpus, {
        signal: this.closing.signal,
        onWait: (message) => this.options.logs?.push('runner', '', message),
      });
    }
    let release: (() => void) | undefined;
    try {
      release = this.options.capacity?.reserve(this.spec.limits.memoryMb);
      const id = await this.engine.create(lease ? { ...this.spec, gpuDevices: lease.devices } : this.spec);
      const held = lease;
      this.releases.set(id, () => {
        release?.();
        held?.release();
      });
      if (held) {
        this.gpuLeases.set(id, held);
        this.options.logs?.push('runner', id.slice(0, 12), `GPU ${held.devices.join(', ')} (${held.devices.length} of the runner's)`);
      }
      return id;
    } catch (error) {
      release?.();
      lease?.release();
      throw error;
    }
  }

  /** Containers prepared but not serving (for cleanup and for `podman ps` accounting). */
  get spareIds(): string[] {
    return this.spares.map((s) => s.id);
  }

  /** Brings one instance to ready, from a spare when there is one (the fast path). */
  async acquire(): Promise<ColdStart> {
    const started = performance.now();
    const stages: Record<string, number> = {};
    const time = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
      const t = performance.now();
      const result = await work();
      stages[stage] = Math.round(performance.now() - t);
      return result;
    };
    const fromSnapshot = this.spares.length === 0 ? await this.restoreSnapshot(time) : null;
    if (fromSnapshot) return { instance: fromSnapshot, coldStartMs: Math.round(performance.now() - started), stages, tier: 'snapshot' };
    const spare = this.spares.shift();
    // In service from now on: its GPU devices are no longer a spare's to give up.
    if (spare) this.gpuLeases.get(spare.id)?.setReclaim(null);
    let id = spare?.id;
    let instance: Instance;
    try {
      if (spare?.state === 'paused' && spare.baseUrl) {
        await time('unpause', () => this.engine.unpause(spare.id));
        instance = { id: spare.id, name: spare.id.slice(0, 12), baseUrl: spare.baseUrl };
        await time('ready', () => this.ready(instance));
      } else {
        id ??= (await time('create', () => this.create())) ?? undefined;
        const created = id!;
        instance = await time('start', () => this.startAndLocate(created));
        await time('ready', () => this.ready(instance));
      }
    } catch (error) {
      // An instance that did not become ready never serves: its container goes, and when it
      // died on its own, its exit is the reason the owner reads.
      const exited = id ? await this.engine.exitReason(id, this.spec.limits.memoryMb) : null;
      if (id) await this.discard(id).catch(() => undefined);
      if (exited) throw new EngineError('health', `${exited} before it answered`, { cause: error });
      throw error;
    }
    this.snapshotInBackground();
    return { instance, coldStartMs: Math.round(performance.now() - started), stages, tier: spare?.state ?? 'image' };
  }

  /** The key of this revision's snapshot: its deployment and the image by digest (snapshots/tier.ts). */
  get snapshotKey(): string {
    return snapshotKey(this.spec.deploymentId, this.spec.image);
  }

  /**
   * An instance restored from the digest's snapshot, or null when there is none or the restore
   * failed: that is said on the deployment's log and the instance starts cold (never an outage).
   */
  private async restoreSnapshot(time: <T>(stage: string, work: () => Promise<T>) => Promise<T>): Promise<Instance | null> {
    const tier = this.options.snapshots;
    if (!tier || !this.pinned || !tier.ready(this.snapshotKey)) return null;
    let restored: Restored | undefined;
    let release: (() => void) | undefined;
    try {
      release = this.options.capacity?.reserve(this.spec.limits.memoryMb);
      const logs = this.options.logs;
      restored = await time('restore', () =>
        tier.restore(this.snapshotKey, this.spec.port, this.spec.env, (stream, line) =>
          logs?.push(stream, restored?.id.slice(0, 12) ?? '', line),
        ),
      );
      const instance: Instance = { id: `snapshot-${restored.id}`, name: restored.id.slice(0, 12), baseUrl: restored.baseUrl };
      this.restored.set(instance.id, restored);
      this.releases.set(instance.id, () => release?.());
      await time('ready', () =>
        waitReady(instance.baseUrl, { healthPath: this.options.healthPath, timeoutMs: this.options.readyTimeoutMs, intervalMs: 2 }),
      );
      return instance;
    } catch (error) {
      if (restored) await this.discard(`snapshot-${restored.id}`).catch(() => undefined);
      else release?.();
      // One line: runsc's error often quotes its stderr over several.
      const reason = (error as Error).message.replace(/\s*\n\s*/g, ' ').trim();
      this.options.logs?.push('runner', '', `Restoring the snapshot failed (${reason}); starting cold`);
      return null;
    }
  }

  /** After a cold start of a digest with no snapshot yet: takes it, then keeps no spare. */
  private snapshotInBackground(): void {
    const tier = this.options.snapshots;
    if (!tier || !this.pinned || this.closed) return;
    const key = this.snapshotKey;
    const { deploymentId, image, port, limits, env } = this.spec;
    void tier
      .take({ deploymentId, image, port, limits, ...(env ? { env } : {}) }, (message) => this.options.logs?.push('runner', '', message))
      .then(async () => {
        const snapshot = tier.ready(key);
        if (!snapshot) return;
        this.options.onSnapshot?.({ bytes: snapshot.sizeBytes, takenAt: snapshot.takenAt });
        // At zero instances nothing of the service runs or is paused: the snapshot replaces the pool.
        const spares = this.spares.splice(0);
        await Promise.all(spares.map((s) => this.discard(s.id).catch(() => undefined)));
      });
  }

  /** Keeps `count` spares of the given kind ready; runs in the background after a cold start. */
  replenish(strategy: WarmStrategy, count: number): Promise<void> {
    if (strategy === 'none' || this.replenishing) return this.replenishing ?? Promise.resolve();
    // A digest with a snapshot keeps no spare: a start from zero restores it.
    if (this.options.snapshots?.ready(this.snapshotKey)) return Promise.resolve();
    this.replenishing = (async () => {
      try {
        while (!this.closed && this.spares.length < count) {
          const spare = await this.prepare(strategy);
          // No GPU free for a spare: none is kept (a spare never waits for, or holds up, a device).
          if (!spare) return;
          // Closed while it was being prepared (stop, delete, a new revision): it never serves.
          if (this.closed) await this.discard(spare.id);
          else this.park(spare);
        }
      } finally {
        this.replenishing = null;
      }
    })();
    return this.replenishing;
  }

  /**
   * Keeps a spare ready. A spare of a GPU service keeps its devices (they are given to a container
   * when it is created) until an instance of any service waits for one: it is then removed and
   * its devices go to that instance (docs/publishing.md, "Resources").
   */
  private park(spare: Spare): void {
    this.spares.push(spare);
    this.gpuLeases.get(spare.id)?.setReclaim(() => {
      const at = this.spares.indexOf(spare);
      if (at < 0) return;
      this.spares.splice(at, 1);
      this.options.logs?.push('runner', spare.id.slice(0, 12), 'Spare removed: another instance waits for its GPU');
      void this.discard(spare.id).catch(() => undefined);
    });
  }

  /** Removes one instance's container (scale down, or a failed one); its memory and GPUs are free again. */
  async discard(id: string): Promise<void> {
    const restored = this.restored.get(id);
    if (restored) {
      this.restored.delete(id);
      try {
        await restored.stop();
      } finally {
        this.releases.get(id)?.();
        this.releases.delete(id);
      }
      return;
    }
    this.stopLogs.get(id)?.();
    this.stopLogs.delete(id);
    try {
      await this.engine.remove(id);
    } finally {
      this.releases.get(id)?.();
      this.releases.delete(id);
      this.gpuLeases.delete(id);
    }
  }

  /** Removes the spares and prepares no more (stop, delete, or a new revision). */
  async discardSpares(): Promise<void> {
    this.closed = true;
    this.closing.abort(new EngineError('capacity', 'The deployment stopped while an instance waited for a GPU'));
    await this.replenishing?.catch(() => undefined);
    const spares = this.spares.splice(0);
    await Promise.all(spares.map((s) => this.discard(s.id)));
  }

  private async prepare(strategy: 'created' | 'paused'): Promise<Spare | null> {
    const id = await this.create(true);
    if (id === null) return null;
    if (strategy === 'created') return { id, state: 'created' };
    try {
      const instance = await this.startAndLocate(id);
      await this.ready(instance);
      await this.engine.pause(id);
      return { id, state: 'paused', baseUrl: instance.baseUrl };
    } catch (error) {
      await this.discard(id);
      throw error;
    }
  }

  private async startAndLocate(id: string): Promise<Instance> {
    await this.engine.start(id);
    const name = id.slice(0, 12);
    if (this.options.logs && !this.stopLogs.has(id)) {
      // Logs are followed from the start, so the lines of a crash are kept.
      this.stopLogs.set(id, await this.engine.followLogs(id, this.options.logs, name));
    }
    return { id, name, baseUrl: await this.engine.baseUrl(id, this.spec.port) };
  }

  private async ready(instance: Instance): Promise<void> {
    await waitReady(instance.baseUrl, {
      healthPath: this.options.healthPath,
      timeoutMs: this.options.readyTimeoutMs,
      isAlive: async () => (await this.engine.state(instance.id))?.running ?? false,
    });
  }
}
