import { log } from '../log';
import { RuntimeError, type Runtime } from '../runtimes/runtime';
import type { ContainerSpec, DeploymentReport, FleetAdapter } from './fleet';
import { DEFAULT_HEALTH_PATH, DEFAULT_PORT } from './contract';
import { createContainerRuntime, type ContainerJobObserver } from './containerRuntime';
import { Deployment, type DeploymentSpec } from './deployment';
import { EngineError, type ContainerEngine } from './engine';
import type { WarmStrategy } from './instances';
import type { LogLine } from './logRing';
import type { PullCheck } from './pullCheck';
import { limitsFor } from './limits';
import { availableParallelism, totalmem } from 'node:os';
import { CONTAINER_MEMORY_SHARE, HostCapacity } from './capacity';
import { GpuAllocator } from './gpuAllocator';
import type { SnapshotTier } from './snapshots/tier';

// The FleetAdapter (fleet.ts) that really runs containers: one Deployment per service
// on a Docker Engine API (Docker, or Podman's compatible service), chosen by CONTAINER_RUNNER=docker
// and DOCKER_HOST (docs/publishing.md, "Running containers"). It never touches the database:
// the platform stores what `onReport` and `onLog` tell it (containerHosting.ts).

export { DEFAULT_HEALTH_PATH, DEFAULT_PORT } from './contract';

export interface DockerFleetOptions {
  engine: ContainerEngine;
  warm?: WarmStrategy;
  /** Caps the memory every service declares (CONTAINER_MEMORY_MB), for small hosts and tests. */
  memoryCapMb?: number;
  /** How a GPU is requested: only on a host that has one (CONTAINER_GPU), for services that declare one. */
  gpu?: 'none' | 'docker' | 'cdi';
  /**
   * CONTAINER_GPUS: the host's GPUs by their CDI names (`nvidia.com/gpu=<name>`); each instance of
   * a GPU service holds its own for its lifetime (gpuAllocator.ts). Required with `cdi`.
   */
  gpuDevices?: readonly string[];
  readyTimeoutMs?: number;
  /** CONTAINER_CAPACITY_MB: the memory containers may reserve; measured on this host by prepare() when absent. */
  capacityMb?: number;
  /** CONTAINER_PULL_TIMEOUT_S in ms. */
  pullTimeoutMs?: number;
  /** The image size cap of the service owner's plan, in MB (quotas.ts). */
  imageMaxMbOf?: (serviceId: string) => Promise<number | undefined>;
  /** Counts an image of another registry against that cap before the engine pulls it (pullCheck.ts). */
  pullCheck?: PullCheck;
  /** Each status change of a deployment, with where an instance answers when one runs. */
  onReport?: (serviceId: string, report: DeploymentReport, baseUrl: string | null) => void;
  /** Every line of every deployment's log ring (stdout, stderr and the runner's own). */
  onLog?: (serviceId: string, line: LogLine) => void;
  /** Per-job cold starts and log lines. */
  jobs?: ContainerJobObserver;
  /** CONTAINER_SNAPSHOTS=on: starts from zero restore memory snapshots (snapshots/tier.ts). */
  snapshots?: SnapshotTier;
}

const isLive = (deployment: Deployment) => deployment.status.status !== 'failed' && deployment.status.status !== 'stopped';

export class DockerFleet implements FleetAdapter {
  readonly name = 'docker';
  private readonly deployments = new Map<string, Deployment>();
  /** Each service's deploy or update under way (inTurn). */
  private readonly turns = new Map<string, Promise<unknown>>();
  private capacity: HostCapacity | undefined;
  /** One owner per GPU across every deployment of this runner. */
  private readonly gpus: GpuAllocator | undefined;

  constructor(private readonly options: DockerFleetOptions) {
    if (options.gpuDevices?.length) this.gpus = new GpuAllocator(options.gpuDevices);
    if (options.capacityMb) this.capacity = new HostCapacity({ memoryMb: options.capacityMb, cpus: availableParallelism() });
  }

  /**
   * Before the first deploy (docs/publishing.md, "Capacity"; docs/security.md): checks the
   * sandbox tier is really the engine's and measures the machine the runner runs on (runner
   * agents run on the engine's host, docs/deploy.md). The engine's own /info is not asked for
   * this: Podman computes its storage figures for it, which takes seconds on a busy host.
   */
  async prepare(): Promise<void> {
    await this.options.engine.checkSandbox();
    await this.checkUserns();
    // Snapshots a previous process left: no deployment of this one knows them (docs/deploy.md, "Snapshot cold starts").
    const swept = await this.options.snapshots?.snapshots.sweep();
    if (swept && swept.sandboxes + swept.snapshots > 0) log.info(swept, 'memory snapshots: removed what a previous runner left');
    this.capacity ??= new HostCapacity({
      memoryMb: Math.floor((totalmem() / 2 ** 20) * CONTAINER_MEMORY_SHARE),
      cpus: availableParallelism(),
    });
  }

  /**
   * `--userns=auto` is Podman's: Docker refuses it on every create ("invalid USER mode"), so a
   * runner on Docker with user namespaces on (the default where /etc/subuid has the range) stops
   * at start with the fix instead of failing every deploy (docs/security.md, "User namespaces").
   */
  private async checkUserns(): Promise<void> {
    const { engine } = this.options;
    if (engine.userns !== 'auto') return;
    const version = (await engine.docker.version()) as { Components?: { Name?: string }[] };
    if ((version.Components ?? []).some((c) => /podman/i.test(c.Name ?? ''))) return;
    throw new EngineError(
      'engine',
      'User namespaces (CONTAINER_USERNS=auto, the default where /etc/subuid has a "containers" range) need Podman; ' +
        'on Docker set "userns-remap" in daemon.json and CONTAINER_USERNS=host',
    );
  }

  /** Removes the containers, networks and volumes the platform manages that no deployment knows (at start). */
  sweep(knownNow: () => Promise<(deploymentId: string) => boolean>): Promise<{ containers: number; networks: number; volumes: number }> {
    return this.options.engine.sweepOrphans(async () => {
      const isKnown = await knownNow();
      return (id) => this.deployments.has(id) || isKnown(id);
    });
  }

  /**
   * Deploys or updates in the background: the owner's save returns at once with the current
   * status (pulling can take minutes). One deploy or update of a service runs at a time, the next
   * after it; a start that fails is the deployment's report (failed, with why), never an error
   * that escapes (docs/security.md, "Publishers' failures").
   */
  async deploy(spec: ContainerSpec): Promise<DeploymentReport> {
    const deploymentSpec = await this.specOf(spec);
    const existing = this.deployments.get(spec.serviceId);
    if (existing && isLive(existing)) {
      this.inTurn(spec.serviceId, async () => {
        // Stopped (deleted, paused) or replaced while this save waited: nothing to apply.
        if (this.deployments.get(spec.serviceId) !== existing || existing.status.status === 'stopped') return;
        // It failed while this save waited: the saved spec deploys afresh.
        if (isLive(existing)) await existing.update(deploymentSpec);
        else await (await this.replace(existing, spec.serviceId, deploymentSpec)).deploy();
      });
      return existing.status;
    }
    const deployment = await this.replace(existing, spec.serviceId, deploymentSpec);
    this.inTurn(spec.serviceId, () => deployment.deploy());
    return deployment.status;
  }

  /** Runs `work` after the service's previous deploy or update; its failure is logged, never thrown. */
  private inTurn(serviceId: string, work: () => Promise<unknown>): void {
    const previous = this.turns.get(serviceId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => log.error({ err: error, serviceId }, 'container deployment failed unexpectedly'));
    this.turns.set(serviceId, next);
    void next.finally(() => {
      if (this.turns.get(serviceId) === next) this.turns.delete(serviceId);
    });
  }

  /** A new Deployment for the service in place of `previous` (a failed one, stopped first). */
  private async replace(previous: Deployment | undefined, serviceId: string, spec: DeploymentSpec): Promise<Deployment> {
    if (previous) await previous.stop().catch((error: unknown) => log.warn({ err: error, serviceId }, 'stopping a deployment failed'));
    const deployment = new Deployment(this.options.engine, spec, {
      warm: this.options.warm,
      readyTimeoutMs: this.options.readyTimeoutMs,
      capacity: this.capacity,
      gpus: this.gpus,
      pullTimeoutMs: this.options.pullTimeoutMs,
      pullCheck: this.options.pullCheck,
      snapshots: this.options.snapshots,
      onReport: (report) => {
        // A replaced deployment's last words are not the service's status.
        const current = this.deployments.get(serviceId);
        if (current && current !== deployment) return;
        this.options.onReport?.(serviceId, report, deployment.baseUrl);
      },
    });
    this.deployments.set(serviceId, deployment);
    const onLog = this.options.onLog;
    if (onLog) deployment.logs.subscribe((line) => onLog(serviceId, line));
    return deployment;
  }

  async status(serviceId: string): Promise<DeploymentReport> {
    const deployment = this.deployments.get(serviceId);
    if (deployment) return deployment.status;
    const detail = 'Not deployed on this runner';
    return { status: 'stopped', message: detail, detail, instances: 0 };
  }

  async instanceUrl(serviceId: string, options: { signal: AbortSignal }): Promise<string> {
    const slot = await this.deploymentOf(serviceId).acquire(options.signal);
    slot.release();
    return slot.baseUrl;
  }

  /** Runs jobs itself: per-job slots (concurrency), cold starts and logs (fleet.ts, runtimeFor). */
  runtimeFor(serviceId: string): Runtime {
    return createContainerRuntime(this.deploymentOf(serviceId), this.options.jobs);
  }

  async stop(serviceId: string): Promise<void> {
    const deployment = this.deployments.get(serviceId);
    if (!deployment) return;
    await deployment.stop();
    this.deployments.delete(serviceId);
    // A stopped or deleted service keeps no snapshot (its storage is the owner's).
    await this.options.snapshots?.removeDeployment(deployment.id);
  }

  async logs(serviceId: string, options: { tail: number }): Promise<string[]> {
    return (this.deployments.get(serviceId)?.logs.tail(options.tail) ?? []).map(
      (l) => `${l.at} ${l.instance || 'runner'} ${l.stream}: ${l.text}`,
    );
  }

  /** Stops every deployment (server shutdown): no container outlives the runner. */
  async close(): Promise<void> {
    await Promise.all([...this.deployments.keys()].map((id) => this.stop(id)));
    // The network namespaces made ahead of restores go too.
    await this.options.snapshots?.snapshots.close();
  }

  private deploymentOf(serviceId: string): Deployment {
    const deployment = this.deployments.get(serviceId);
    if (!deployment) throw new RuntimeError('no_deployment', `${serviceId} is not deployed on this runner`);
    return deployment;
  }

  private async specOf(spec: ContainerSpec): Promise<DeploymentSpec> {
    // The service's own resources size it, not its GPU offer (docs/publishing.md, "Resources").
    const limits = limitsFor(spec.resources, this.options.memoryCapMb);
    const imageMaxMb = await this.options.imageMaxMbOf?.(spec.serviceId);
    return {
      id: spec.serviceId,
      image: spec.image,
      ...(spec.registryAuth
        ? {
            auth: { username: spec.registryAuth.username, password: spec.registryAuth.password, serveraddress: spec.registryAuth.registry },
          }
        : {}),
      port: spec.port ?? DEFAULT_PORT,
      healthPath: spec.healthPath ?? DEFAULT_HEALTH_PATH,
      instance: { limits: this.capacity?.cap(limits) ?? limits, gpu: this.options.gpu ?? 'none', ...(spec.env ? { env: spec.env } : {}) },
      ...(imageMaxMb !== undefined ? { imageMaxMb } : {}),
      minInstances: spec.minInstances,
      maxInstances: spec.maxInstances,
      idleTimeoutS: spec.idleTimeoutS,
      concurrency: spec.concurrency,
      ...(spec.snapshot === false ? { snapshot: false } : {}),
    };
  }
}
