import type { HostCapacity } from './capacity';
import { DEFAULT_CONCURRENCY } from './contract';
import { EngineError, publisherReason, type ContainerEngine, type InstanceSpec, type RegistryAuth } from './engine';
import type { DeploymentReport, Rollout } from './fleet';
import type { GpuAllocator } from './gpuAllocator';
import { InstanceFactory, type ColdStartTier, type Instance, type WarmStrategy } from './instances';
import { LogRing } from './logRing';
import { imageTooLargeMessage, type PullCheck } from './pullCheck';
import type { SnapshotTier } from './snapshots/tier';

// One container deployment's lifecycle on one engine (docs/publishing.md, "Lifecycle"):
// deploying → running → scaled_to_zero after idle_timeout_s without a job → running again on the
// next job (a cold start) → failed (with the reason and the last log lines) or stopped. Jobs
// take a slot on a running instance; when every slot is taken and fewer than max_instances run,
// another instance starts (the queue decides the scale); idle instances beyond min_instances go
// back to the warm pool. Editing the image or settings rolls the deployment.

export { DEFAULT_CONCURRENCY } from './contract';
/** How long a new instance may take to pass its health check before the deploy fails. */
export const READY_TIMEOUT_MS = 60_000;
/** Log lines quoted in a failure message. */
export const FAILURE_LOG_LINES = 10;

export interface DeploymentSpec {
  id: string;
  image: string;
  auth?: RegistryAuth;
  port: number;
  healthPath: string;
  instance: Pick<InstanceSpec, 'limits' | 'gpu' | 'env'>;
  minInstances: number;
  maxInstances: number;
  idleTimeoutS: number;
  concurrency?: number;
  /** The owner's plan's cap on the image's unpacked size (quotas.ts). */
  imageMaxMb?: number;
  /** false: the service opted out of the runner's snapshot tier (docs/deploy.md, "Snapshot cold starts"). */
  snapshot?: boolean;
}

/** What the deployment keeps of its report; the detail is made from it (detailOf). */
type ReportState = Omit<DeploymentReport, 'detail'>;

/** The report's one sentence for health checks and refused runs (fleet.ts, DeploymentReport.detail). */
export function detailOf(report: ReportState): string {
  switch (report.status) {
    case 'running':
      return `${report.instances} instance${report.instances === 1 ? '' : 's'} running`;
    case 'scaled_to_zero':
      return `Scaled to zero (${report.message}); the next run starts an instance`;
    default:
      return report.message;
  }
}

/**
 * A job's place on one instance (one of its `concurrency` slots): where to send the job, and what
 * its cold start cost. Released when the job's answer came. Not a lease: nothing expires.
 */
export interface InstanceSlot {
  baseUrl: string;
  instance: string;
  coldStartMs: number;
  /** Where the cold start came from (docs/deploy.md, "Snapshot cold starts"); `warm`: it was running. */
  coldStartTier: ColdStartTier | 'warm';
  /** The instance's log cursor when the job started (its lines are those after it). */
  logCursor: number;
  release(): void;
}

export interface DeploymentOptions {
  warm?: WarmStrategy;
  readyTimeoutMs?: number;
  onReport?: (report: DeploymentReport) => void;
  logs?: LogRing;
  /** The runner's machine: every container reserves its memory here (capacity.ts). */
  capacity?: HostCapacity;
  /** The runner's GPUs (CONTAINER_GPUS): each instance of a GPU service holds its own (gpuAllocator.ts). */
  gpus?: GpuAllocator;
  /** A pull still running after this fails the deploy (CONTAINER_PULL_TIMEOUT_S). */
  pullTimeoutMs?: number;
  /** Counts an image of another registry against imageMaxMb before the engine pulls it (pullCheck.ts). */
  pullCheck?: PullCheck;
  /** The runner's snapshot tier (CONTAINER_SNAPSHOTS=on; docs/deploy.md, "Snapshot cold starts"). */
  snapshots?: SnapshotTier;
}

interface Running {
  instance: Instance;
  active: number;
  idleSince: number;
  factory: InstanceFactory;
}

interface Waiter {
  resolve: (slot: InstanceSlot) => void;
  reject: (error: Error) => void;
  enqueuedAt: number;
}

/** What the instances are made from: a change rolls them (an edit of anything else applies in place). */
const revisionOf = (spec: DeploymentSpec) => ({
  image: spec.image,
  port: spec.port,
  healthPath: spec.healthPath,
  instance: spec.instance,
  auth: spec.auth,
  imageMaxMb: spec.imageMaxMb,
  snapshot: spec.snapshot,
});
/**
 * The revision compared (the credential by its user and registry). Turning snapshots off or on
 * rolls too: the new instances come from a factory with or without the snapshot tier.
 */
const rolloutKeyOf = (spec: DeploymentSpec) =>
  JSON.stringify([
    spec.image,
    spec.port,
    spec.healthPath,
    spec.instance,
    spec.auth?.username,
    spec.auth?.serveraddress,
    spec.imageMaxMb,
    spec.snapshot !== false,
  ]);

/** A started instance's cold start, handed to the first job it serves; later jobs find it warm. */
interface StartedInstance {
  ms: number;
  tier: ColdStartTier | 'warm';
}
const WARM: StartedInstance = { ms: 0, tier: 'warm' };
const TIER_WORDS: Record<ColdStartTier, string> = {
  snapshot: 'a memory snapshot',
  paused: 'the paused pool',
  created: 'a created container',
  image: 'the image',
};

/** The words of a rollout that serves: the new version's instances answer. */
const SERVING = 'The new version serves';

export class Deployment {
  readonly logs: LogRing;
  private spec: DeploymentSpec;
  private factory: InstanceFactory;
  private running: Running[] = [];
  private starting = 0;
  private waiters: Waiter[] = [];
  private report: ReportState = { status: 'deploying', message: 'Queued for deployment', instances: 0 };
  private idleTimer: NodeJS.Timeout | null = null;
  /** The current revision's pull (with its own credential) and digest; no instance starts before it. */
  private pulled: Promise<void> = Promise.reject(new EngineError('pull', 'Not pulled yet'));
  private readonly warm: WarmStrategy;
  private readonly readyTimeoutMs: number;
  /** Set by stop(): a start still under way removes what it made and reports nothing. */
  private stopped = false;

  constructor(
    private readonly engine: ContainerEngine,
    spec: DeploymentSpec,
    private readonly options: DeploymentOptions = {},
  ) {
    this.spec = spec;
    this.logs = options.logs ?? new LogRing();
    this.warm = options.warm ?? 'paused';
    this.readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.factory = this.factoryFor(spec);
    this.pulled.catch(() => undefined);
    this.report.rollout = { image: spec.image, status: 'in_progress', message: 'Queued for deployment' };
  }

  get id(): string {
    return this.spec.id;
  }

  get status(): DeploymentReport {
    return { ...this.report, detail: detailOf(this.report) };
  }

  /** Every container id this deployment holds (running and spare). */
  get containerIds(): string[] {
    return [...this.running.map((r) => r.instance.id), ...this.factory.spareIds];
  }

  /** The base URL of a running instance, or null (for importing endpoints, health checks). */
  get baseUrl(): string | null {
    return this.running[0]?.instance.baseUrl ?? null;
  }

  /** Pulls, starts the first instance, passes its health check, then settles at min_instances. */
  async deploy(): Promise<DeploymentReport> {
    const image = this.spec.image;
    this.setReport({
      status: 'deploying',
      message: `Pulling ${image}`,
      rollout: { image, status: 'in_progress', message: `Pulling ${image}` },
    });
    // Opted out (docs/deploy.md, "Snapshot cold starts"): a snapshot this runner kept of the
    // service (a failed deployment's, replaced by this one) goes, and is no longer reported.
    if (this.options.snapshots && this.spec.snapshot === false) {
      await this.options.snapshots.removeDeployment(this.spec.id).catch(() => undefined);
      this.setReport({ snapshot: null });
    }
    try {
      await this.stage('pull', () => this.pull(this.spec, this.factory));
      this.setReport({ status: 'deploying', message: 'Starting the first instance' });
      // Jobs that arrived while it deployed (a takeover, a save just before a run) take it first.
      this.serveWaiters(await this.startInstance());
      this.setReport({ status: 'running', message: 'Healthy', rollout: { image, status: 'succeeded', message: SERVING } });
      if (this.waiters.length > 0) this.scaleForQueue();
      await this.settle();
      if (!this.stopped) this.armIdleTimer();
    } catch (error) {
      if (!this.stopped) await this.fail(error);
    }
    return this.status;
  }

  /** Takes a slot for one job: a warm one, a new instance (a cold start), or the next free one. */
  acquire(signal?: AbortSignal): Promise<InstanceSlot> {
    if (this.report.status === 'failed' || this.report.status === 'stopped') {
      return Promise.reject(new EngineError('engine', `The deployment is ${this.report.status}: ${this.report.message}`));
    }
    const free = this.freeSlot();
    if (free) return Promise.resolve(this.occupy(free, WARM));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, enqueuedAt: performance.now() };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      });
      // While the first deploy pulls and starts, the deploy serves the waiters when it is done
      // (starting another instance before the image is pulled would fail).
      if (this.report.status !== 'deploying') this.scaleForQueue();
    });
  }

  /** Applies an edit: settings only change in place; a new image or runtime rolls the instances. */
  async update(spec: DeploymentSpec): Promise<DeploymentReport> {
    const rolled = rolloutKeyOf(spec) !== rolloutKeyOf(this.spec);
    const previous = this.spec;
    this.spec = spec;
    if (!rolled) {
      // This image already serves: a save of it (again) is a rollout done, whatever failed before.
      const current = this.report.rollout;
      if (current?.image !== spec.image || current.status !== 'succeeded') {
        this.setReport({ rollout: { image: spec.image, status: 'succeeded', message: SERVING } });
      }
      await this.settleReported();
      return this.status;
    }
    // Rolling update: the new revision's instances are healthy before the old ones go.
    const old = { running: this.running, factory: this.factory, pulled: this.pulled };
    this.factory = this.factoryFor(spec);
    this.running = [];
    const rolling = `Rolling out ${spec.image}`;
    this.setReport({ status: 'deploying', message: rolling, rollout: { image: spec.image, status: 'in_progress', message: rolling } });
    try {
      await this.stage('pull', () => this.pull(spec, this.factory));
      const count = Math.max(1, old.running.length, spec.minInstances);
      for (let i = 0; i < count; i += 1) this.serveWaiters(await this.startInstance());
      this.setReport({ status: 'running', message: 'Healthy', rollout: { image: spec.image, status: 'succeeded', message: SERVING } });
    } catch (error) {
      // The old revision keeps serving; the report says why the new one did not start, and the
      // rollout failed (docs/publishing.md, "Rollouts"): `running` alone would read as done.
      const failed = this.factory;
      this.factory = old.factory;
      this.pulled = old.pulled;
      this.running = [...old.running, ...this.running];
      // What runs is the previous revision (the edit's scaling stays): saving the refused image
      // again is a new rollout, not "unchanged".
      this.spec = { ...spec, ...revisionOf(previous) };
      await Promise.all(this.running.filter((r) => r.factory === failed).map((r) => this.retire(r)));
      await failed.discardSpares();
      const reason = `The update did not start, the previous version still runs: ${publisherReason(error)}`;
      this.setReport({ status: 'running', message: reason, rollout: { image: spec.image, status: 'failed', message: reason } });
      return this.status;
    }
    await old.factory.discardSpares();
    // One snapshot per digest: the previous one's goes with its revision, and every one of them
    // when the service opted out (docs/deploy.md, "Snapshot cold starts").
    const optedOut = spec.snapshot === false;
    if (this.options.snapshots && (optedOut || old.factory.snapshotKey !== this.factory.snapshotKey)) {
      await this.options.snapshots.removeDeployment(this.spec.id, optedOut ? undefined : this.factory.snapshotKey).catch(() => undefined);
      if (optedOut || !this.options.snapshots.ready(this.factory.snapshotKey)) this.setReport({ snapshot: null });
    }
    // Old instances finish the jobs they hold, then go.
    await Promise.all(old.running.map((r) => this.retireWhenIdle(r)));
    await this.settleReported();
    return this.status;
  }

  /** settle() after an edit: a start that fails is the deployment's report, never the caller's error. */
  private async settleReported(): Promise<void> {
    try {
      await this.settle();
    } catch (error) {
      if (this.stopped) return;
      if (this.running.length === 0) await this.fail(error);
      else this.setReport({ message: `${this.running.length} of ${this.spec.minInstances} instances: ${publisherReason(error)}` });
    }
  }

  /** Removes every container (pause or delete by the owner). */
  async stop(message = 'Stopped by the owner'): Promise<void> {
    this.stopped = true;
    this.clearIdleTimer();
    for (const w of this.waiters.splice(0)) w.reject(new EngineError('engine', message));
    // Spares and starts waiting for a GPU first: the devices the running instances free next must
    // not go to an instance of this deployment that would start only to be removed.
    await this.factory.discardSpares();
    const running = this.running.splice(0);
    await Promise.all(running.map((r) => r.factory.discard(r.instance.id)));
    await this.engine.removeDeployment(this.spec.id);
    this.setReport({ status: 'stopped', message, rollout: this.rolloutEnded(message) });
  }

  /**
   * A job found its instance dead (connection refused, reset): the instance is removed and a
   * replacement started (up to min_instances, or one while jobs wait); the deployment fails with
   * the container's reason only when no instance is left and the replacement does not start.
   */
  async instanceFailed(instanceName: string): Promise<void> {
    const entry = this.running.find((r) => r.instance.name === instanceName);
    if (!entry) return;
    const reason = await this.engine.exitReason(entry.instance.id, this.spec.instance.limits.memoryMb);
    if (!reason) return;
    const lines = await this.engine.lastLogLines(entry.instance.id, FAILURE_LOG_LINES);
    this.running = this.running.filter((r) => r !== entry);
    await entry.factory.discard(entry.instance.id);
    this.logs.push('runner', entry.instance.name, `${reason}; starting a replacement`);
    if (this.running.length >= Math.max(1, this.spec.minInstances) || entry.factory !== this.factory) return;
    try {
      this.serveWaiters(await this.startInstance());
    } catch (error) {
      if (this.running.length === 0)
        await this.fail(new EngineError('health', `${reason}; its replacement did not start: ${publisherReason(error)}`), lines);
    }
  }

  /**
   * Pulls the revision's image with the deployment's own credential, checks its unpacked size
   * against the plan and pins the factory to its digest: until this succeeds the factory creates
   * nothing, so a cached copy (another tenant's, or a tag pushed again since) never runs.
   */
  private pull(spec: DeploymentSpec, factory: InstanceFactory): Promise<void> {
    this.pulled = (async () => {
      // An image from another registry is counted before the engine writes any of it (pullCheck.ts),
      // then pulled by the digest counted; the check after the pull stays as a second line.
      let reference = spec.image;
      const check = this.options.pullCheck;
      if (check && spec.imageMaxMb !== undefined) {
        const refused = this.engine.pullRefusal(spec.image, spec.auth);
        if (refused) throw refused;
        reference = (await check.check(spec.image, spec.auth, spec.imageMaxMb, this.options.pullTimeoutMs)).pull;
      }
      await this.engine.pull(reference, spec.auth, this.options.pullTimeoutMs);
      const image = await this.engine.resolvePulled(reference);
      if (spec.imageMaxMb !== undefined && image.sizeMb > spec.imageMaxMb) {
        await this.engine.removeImage(image.reference);
        throw new EngineError('pull', imageTooLargeMessage(image.sizeMb, spec.imageMaxMb));
      }
      factory.pin(image);
    })();
    return this.pulled;
  }

  private factoryFor(spec: DeploymentSpec): InstanceFactory {
    return new InstanceFactory(
      this.engine,
      { deploymentId: spec.id, image: spec.image, port: spec.port, ...spec.instance },
      {
        healthPath: spec.healthPath,
        readyTimeoutMs: this.readyTimeoutMs,
        logs: this.logs,
        capacity: this.options.capacity,
        gpus: this.options.gpus,
        pinned: false,
        // A service with `snapshot: false` never meets the tier: no snapshot taken or restored.
        ...(this.options.snapshots && spec.snapshot !== false
          ? { snapshots: this.options.snapshots, onSnapshot: (snapshot: { bytes: number; takenAt: Date }) => this.setReport({ snapshot }) }
          : {}),
      },
    );
  }

  private get concurrency(): number {
    return this.spec.concurrency ?? DEFAULT_CONCURRENCY;
  }

  private freeSlot(): Running | undefined {
    return this.running.filter((r) => r.active < this.concurrency).sort((a, b) => a.active - b.active)[0];
  }

  private occupy(entry: Running, coldStart: StartedInstance): InstanceSlot {
    entry.active += 1;
    let released = false;
    return {
      baseUrl: entry.instance.baseUrl,
      instance: entry.instance.name,
      coldStartMs: coldStart.ms,
      coldStartTier: coldStart.tier,
      logCursor: this.logs.cursor,
      release: () => {
        if (released) return;
        released = true;
        entry.active -= 1;
        entry.idleSince = Date.now();
        this.serveWaiters();
      },
    };
  }

  /** Hands free slots to waiting jobs, oldest first. */
  private serveWaiters(coldStart: StartedInstance = WARM): void {
    for (;;) {
      const free = this.freeSlot();
      const waiter = free && this.waiters.shift();
      if (!free || !waiter) return;
      waiter.resolve(this.occupy(free, coldStart));
      coldStart = WARM;
    }
  }

  /** Starts instances while jobs wait beyond the free slots, up to max_instances. */
  private scaleForQueue(): void {
    const capacity = (this.running.length + this.starting) * this.concurrency;
    const busy = this.running.reduce((n, r) => n + r.active, 0);
    const needed = Math.ceil((busy + this.waiters.length - capacity) / this.concurrency);
    const room = this.spec.maxInstances - this.running.length - this.starting;
    for (let i = 0; i < Math.min(needed, room); i += 1) {
      this.startInstance()
        .then((coldStart) => this.serveWaiters(coldStart))
        .catch(async (error: Error) => {
          if (this.running.length === 0 && !this.stopped) {
            for (const w of this.waiters.splice(0)) w.reject(error);
            await this.fail(error);
          }
        });
    }
  }

  /** One instance from the warm pool (or created), healthy, in service; returns its cold start. */
  private async startInstance(): Promise<StartedInstance> {
    this.starting += 1;
    try {
      await this.pulled;
      const factory = this.factory;
      const { instance, coldStartMs, stages, tier } = await factory.acquire();
      if (this.stopped) {
        // Stopped (deleted, paused) while this instance started: it never serves.
        await factory.discard(instance.id).catch(() => undefined);
        throw new EngineError('engine', 'The deployment was stopped while an instance started');
      }
      this.running.push({ instance, active: 0, idleSince: Date.now(), factory: this.factory });
      const detail = Object.entries(stages)
        .map(([stage, ms]) => `${stage} ${ms} ms`)
        .join(', ');
      this.logs.push('runner', instance.name, `Instance ready in ${coldStartMs} ms (${detail}; from ${TIER_WORDS[tier]})`);
      this.setReport({ status: 'running', message: 'Healthy', lastColdStartMs: coldStartMs });
      // The spare that was just used is replaced in the background.
      void this.factory
        .replenish(this.warm, 1)
        .catch((error: unknown) => this.logs.push('runner', '', `Warm pool: ${publisherReason(error)}`));
      return { ms: coldStartMs, tier };
    } finally {
      this.starting -= 1;
    }
  }

  /**
   * Brings the running count to min_instances and keeps one spare in the warm pool. A runner
   * without room for more stops there and says so; the instances it has keep serving.
   */
  private async settle(): Promise<void> {
    while (!this.stopped && this.running.length < this.spec.minInstances) {
      try {
        this.serveWaiters(await this.startInstance());
      } catch (error) {
        if (!(error instanceof EngineError && error.stage === 'capacity') || this.running.length === 0) throw error;
        this.setReport({ message: `${this.running.length} of ${this.spec.minInstances} instances: ${publisherReason(error)}` });
        return;
      }
    }
    await this.factory.replenish(this.warm, 1).catch(() => undefined);
  }

  /** Idle instances beyond min_instances leave service; at zero the deployment is scaled_to_zero. */
  private async scaleDownIdle(idleMs: number): Promise<void> {
    const now = Date.now();
    const idle = this.running.filter((r) => r.active === 0 && now - r.idleSince >= idleMs);
    const surplus = this.running.length - this.spec.minInstances;
    for (const entry of idle.slice(0, Math.max(0, surplus))) {
      this.running = this.running.filter((r) => r !== entry);
      await this.retire(entry);
    }
    if (this.running.length === 0 && this.report.status === 'running') {
      this.setReport({ status: 'scaled_to_zero', message: `No job for ${this.spec.idleTimeoutS} s` });
    } else {
      this.setReport({ status: this.report.status, message: this.report.message });
    }
  }

  private async retire(entry: Running): Promise<void> {
    this.logs.push('runner', entry.instance.name, 'Instance stopped (idle)');
    await entry.factory.discard(entry.instance.id);
  }

  private async retireWhenIdle(entry: Running): Promise<void> {
    while (entry.active > 0) await new Promise((r) => setTimeout(r, 50));
    await this.retire(entry);
  }

  private armIdleTimer(): void {
    this.clearIdleTimer();
    // Checked at a tenth of the idle timeout, so an instance leaves at most 10 % late.
    const every = Math.max(100, (this.spec.idleTimeoutS * 1000) / 10);
    this.idleTimer = setInterval(() => {
      if (this.report.status !== 'running') return;
      void this.scaleDownIdle(this.spec.idleTimeoutS * 1000).catch(() => undefined);
    }, every);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearInterval(this.idleTimer);
    this.idleTimer = null;
  }

  private async stage<T>(name: string, work: () => Promise<T>): Promise<T> {
    const t = performance.now();
    const result = await work();
    this.logs.push('runner', '', `${name} ${Math.round(performance.now() - t)} ms`);
    return result;
  }

  private async fail(error: unknown, lines?: string[]): Promise<void> {
    this.clearIdleTimer();
    const reason = publisherReason(error);
    const tail =
      lines ??
      this.logs
        .tail(FAILURE_LOG_LINES)
        .filter((l) => l.stream !== 'runner')
        .map((l) => l.text);
    this.logs.push('runner', '', `Failed: ${reason}`);
    const running = this.running.splice(0);
    await Promise.all(running.map((r) => r.factory.discard(r.instance.id))).catch(() => undefined);
    await this.factory.discardSpares().catch(() => undefined);
    await this.engine.removeDeployment(this.spec.id).catch(() => undefined);
    this.setReport({
      status: 'failed',
      message: tail.length ? `${reason}. Last log lines:\n${tail.join('\n')}` : reason,
      rollout: this.rolloutEnded(reason),
    });
    // Jobs that waited for the first instance learn why it will not come.
    for (const w of this.waiters.splice(0)) w.reject(new EngineError('engine', `The deployment failed: ${reason}`));
  }

  /** The rollout once the deployment failed or stopped: one still under way failed with `reason`; a done one stays done. */
  private rolloutEnded(reason: string): Rollout | undefined {
    const rollout = this.report.rollout;
    return rollout?.status === 'in_progress' ? { ...rollout, status: 'failed', message: reason } : rollout;
  }

  private setReport(change: Partial<ReportState>): void {
    // After stop() nothing a late start says replaces "stopped".
    if (this.stopped && change.status !== 'stopped') return;
    this.report = { ...this.report, ...change, instances: this.running.length };
    this.options.onReport?.(this.status);
  }
}
