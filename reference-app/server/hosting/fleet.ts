import { RuntimeError, type Runtime } from '../runtimes/runtime';
import type { ServiceResources } from './contract';

// The seam between the platform and whatever runs publishers' containers (docs/publishing.md,
// "Container deployments"). The runtime registry (runtimeRegistry.ts) is the only caller: it
// deploys when an owner saves a container runtime, stops when the owner removes it or deletes
// the service, reads the status for health checks and admission, and asks for a running
// instance's URL when a claimed job must run.
//
// The default adapter (waitingFleet, below) has no runner: every deployment waits. With
// CONTAINER_RUNNER=docker it is a LeasedFleet (leasedFleet.ts: which process manages which
// deployment) over a DockerFleet (dockerFleet.ts: one Deployment per service on the container
// engine), wired by containerHosting.ts, which stores their reports. A runner keeps
// `minInstances`..`maxInstances` containers of the image per service, scales to zero after
// `idleTimeoutS` without runs and starts one again on the next run (a cold start), which
// `instanceUrl` waits for.

/**
 * Where a deployment is, the one list of the platform (model_hosting.status, the wire's
 * HostingInformation.status, in the wire's order). `waiting_for_runner`: no runner is attached
 * (the default adapter); `deploying`: pulling or starting; `running`: at least one instance
 * answers; `scaled_to_zero`: none runs, the next run starts one; `failed`: cannot start (bad
 * image, crash loop); `stopped`: the owner removed it.
 */
export const DEPLOYMENT_STATUSES = ['deploying', 'running', 'scaled_to_zero', 'failed', 'stopped', 'waiting_for_runner'] as const;

export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/**
 * Where the latest rollout of a saved image is (docs/publishing.md, "Rollouts"): `pending`: saved,
 * no runner has taken it up yet; `in_progress`: pulling or starting the new version;
 * `succeeded`: the new version serves; `failed`: it never served (a first deploy that failed, or
 * an update refused or broken while the previous version kept serving), with the reason.
 */
export const ROLLOUT_STATUSES = ['pending', 'in_progress', 'succeeded', 'failed'] as const;

export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];

/** The outcome of the latest deploy or rolling update, for the image it rolled out. */
export interface Rollout {
  /** The image reference as saved (the runtime's `image`, e.g. a pinned `…@sha256:…`). */
  image: string;
  status: RolloutStatus;
  /** Why it failed, or what it is doing; no container log lines (the deployment's message has those). */
  message: string;
}

/** What to run, as the owner saved it (docs/publishing.md). */
export interface ContainerSpec {
  /** The service's id: one deployment per service. */
  serviceId: string;
  /** Image reference, e.g. `registry.example.com/me/sketch:1.0`. */
  image: string;
  /** Credentials for a private registry, opened from the secret box; absent for public images. */
  registryAuth?: { registry: string; username: string; password: string };
  /** GPU kind asked for (an id of `pricing_servers`). */
  gpu: string;
  minInstances: number;
  maxInstances: number;
  /** Seconds without a run before an instance stops (scale to zero when minInstances is 0). */
  idleTimeoutS: number;
  /** The port the image serves HTTP on (default 8080) and the path that gates traffic (default /openapi.json). */
  port?: number;
  healthPath?: string;
  /** Jobs one instance takes at once (default 1). */
  concurrency?: number;
  /** What one instance may use (contract.ts, DEFAULT_RESOURCES for what is absent); never sized by `gpu`. */
  resources?: Partial<ServiceResources>;
  /**
   * false: the runner's snapshot tier is never used for the service (no snapshot taken, none
   * restored, any it had removed); absent or true: the default (docs/deploy.md, "Snapshot cold starts").
   */
  snapshot?: boolean;
  /**
   * The service's secrets, opened (secrets/env.ts): each instance's environment. Read at every
   * deploy, so a change reaches the instances on the next one (docs/publishing.md, "Secrets");
   * never logged, and not part of the lease revision (a change alone redeploys nothing).
   */
  env?: Record<string, string>;
  /** The fingerprint of the secrets the last deploy gave (secrets/env.ts): in the lease revision instead. */
  secretsRevision?: string;
}

/**
 * What a deployment says about itself, the one report of container hosting: the runner's
 * Deployment (deployment.ts) makes it on every change, a fleet answers it to deploy and status,
 * containerHosting.ts stores it in model_hosting, and the leased fleet of a process that does
 * not manage the deployment reads it back from there (leasedFleet.ts).
 */
export interface DeploymentReport {
  status: DeploymentStatus;
  /**
   * The runner's own words, stored as model_hosting.message and shown to the owner: "Healthy",
   * "Pulling …", a failure's reason with the container's last log lines.
   */
  message: string;
  /**
   * One sentence for the owner's health check and for a refused run, e.g. "2 instances running"
   * (deployment.ts, detailOf); the message where there is nothing shorter to say.
   */
  detail: string;
  /** Instances answering now. */
  instances: number;
  /** Milliseconds the latest cold start took (instance started → answering), when one happened. */
  lastColdStartMs?: number;
  /**
   * The latest rollout: whether the image last saved runs. `status` alone cannot say it, since a
   * refused update leaves the previous version `running`. Absent where no runner reports it.
   */
  rollout?: Rollout;
  /**
   * The memory snapshot starts from zero restore (docs/deploy.md, "Snapshot cold starts"): its
   * size and when it was taken; null once there is none. Absent where the runner has no snapshot tier.
   */
  snapshot?: { bytes: number; takenAt: Date } | null;
}

export interface FleetAdapter {
  /** Shown in logs and as the job's `runtime` prefix, e.g. "podman". */
  readonly name: string;

  /**
   * Creates the deployment, or changes it to `spec` when it exists (idempotent: saving the same
   * spec twice changes nothing). Returns at once with the status the deployment has then
   * (typically `deploying`); never waits for an image pull.
   */
  deploy(spec: ContainerSpec): Promise<DeploymentReport>;

  /** Where the service's deployment is now; `stopped` for a service it does not know. */
  status(serviceId: string): Promise<DeploymentReport>;

  /**
   * The base URL (e.g. `http://10.88.0.5:8000`) of an instance that is running and answering,
   * starting one first when the deployment is scaled to zero (a cold start). Rejects with a
   * RuntimeError (runtime.ts) whose message the job's owner reads when no instance can run,
   * and with `signal.reason` when the job is cancelled or times out while it waits.
   */
  instanceUrl(serviceId: string, options: { signal: AbortSignal }): Promise<string>;

  /** Stops every instance and forgets the deployment. Resolves when they are gone; idempotent. */
  stop(serviceId: string): Promise<void>;

  /**
   * Optional: a runtime that runs the service's jobs itself, for an adapter that tracks per-job
   * slots, cold starts and log lines (dockerFleet.ts). Without it, a run asks
   * `instanceUrl` and goes through the HTTP runtime.
   */
  runtimeFor?(serviceId: string): Runtime;

  /**
   * Optional: the services whose deployments this process manages (holds the lease of: docs/deploy.md,
   * "Several runners"). When present, this process's worker claims container jobs of these
   * services only; without it (one process, or a test fleet) it claims every container job.
   */
  heldDeployments?(): readonly string[];

  /** The latest lines the deployment's instances wrote (oldest first), for the owner. Optional. */
  logs?(serviceId: string, options: { tail: number }): Promise<string[]>;
}

export const WAITING_DETAIL = 'The deployment is waiting for a GPU runner';

const WAITING: DeploymentReport = { status: 'waiting_for_runner', message: WAITING_DETAIL, detail: WAITING_DETAIL, instances: 0 };

/** The default: no runner is attached, so every deployment waits and nothing runs. */
export const waitingFleet: FleetAdapter = {
  name: 'none',
  async deploy() {
    return { ...WAITING };
  },
  async status() {
    return { ...WAITING };
  },
  async instanceUrl(serviceId) {
    throw new RuntimeError('no_runner', `${serviceId}: no container runner is attached to this server`);
  },
  async stop() {},
};
