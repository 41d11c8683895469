import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { log } from '../log';
import type { ContainerRunnerConfig } from './config';
import { DockerFleet } from './dockerFleet';
import { PullCheck } from './pullCheck';
import { ContainerEngine } from './engine';
import type { DeploymentReport, FleetAdapter } from './fleet';
import { activePlanOf } from '../payments/queries';
import { selectContainerRuntimes, selectServiceOwner, updateHostingState } from './queries';
import { DeploymentLogWriter } from './deploymentLogs';
import { hostingQuotaOf } from '../payments/hostingQuotas';
import { LeasedFleet } from './leasedFleet';
import type { PlatformRegistry } from '../registry/platformRegistry';
import { withPlatformRegistryPulls } from './runnerPulls';
import { snapshotTierFor } from './snapshots/tier';

// The container runner attached to this server (CONTAINER_RUNNER=docker, docs/publishing.md,
// "Running containers"): the DockerFleet, and what the platform does with its reports. The
// fleet never touches the database; here each report becomes model_hosting's live state, the
// first healthy instance fills in a service without endpoints from its /openapi.json, and each
// job's cold start and log lines are stored with the job.

async function storeReport(db: Db, serviceId: string, report: DeploymentReport, baseUrl: string | null, rollout: boolean) {
  await updateHostingState(db, serviceId, {
    status: report.status,
    message: report.message,
    instances: report.instances,
    base_url: baseUrl,
    ...(report.lastColdStartMs !== undefined ? { last_cold_start_ms: report.lastColdStartMs } : {}),
    ...(report.snapshot !== undefined
      ? { snapshot_bytes: report.snapshot?.bytes ?? null, snapshot_taken_at: report.snapshot?.takenAt ?? null }
      : {}),
    ...(rollout && report.rollout
      ? { rollout_image: report.rollout.image, rollout_status: report.rollout.status, rollout_message: report.rollout.message }
      : {}),
  });
}

export interface ContainerHosting {
  fleet: FleetAdapter;
  /**
   * Starts taking deployments (docs/deploy.md, "Several runners"): the stored container services
   * whose lease is free are deployed here, and the leases are renewed until close.
   */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export interface ContainerHostingOptions {
  notifyChannel?: string;
  /** The platform's public URL: labels what it creates, scopes its sweep. */
  platform?: string;
  /** The platform's own registry: its images are pulled with a ticket, no stored credential. */
  registry?: PlatformRegistry;
  /** The registries images may be pulled from (CONTAINER_REGISTRIES and the platform's own). */
  imageRegistries?: readonly string[];
  /**
   * Fills in a service saved without endpoints from its first healthy instance (publishing's,
   * publishing/containerEndpoints.ts: the models table is publishing's to write); platform.ts
   * passes it.
   */
  importEndpoints?: (serviceId: string, baseUrl: string) => Promise<void>;
  /** Records the cold start a job waited for (the jobs table is the queue's to write); platform.ts passes it. */
  jobColdStart?: (jobId: string, coldStartMs: number, tier: string) => Promise<void>;
  /**
   * Queues the `logs` webhooks of jobs whose container wrote lines (webhook deliveries are the
   * queue's to write: jobs/queries.ts); platform.ts passes it. Without it no `logs` webhook is sent.
   */
  jobLogWebhooks?: (jobIds: readonly string[]) => Promise<void>;
}

/** How this process hosts containers, as platform.ts asks. */
export interface HostingChoice {
  /** A fleet the caller brings (tests): no runner starts here. */
  fleet?: FleetAdapter;
  /** CONTAINER_RUNNER's settings (hosting/config.ts); null: no runner in this process. */
  runner: ContainerRunnerConfig | null | undefined;
  /** PostgreSQL (DATABASE_URL): runners elsewhere may share the database. */
  sharedDatabase: boolean;
}

/**
 * The choice of hosting: the fleet the caller brings; else the container runner when
 * CONTAINER_RUNNER is set (docs/publishing.md, "Running containers"); else, on PostgreSQL, a
 * leased fleet that answers what the runners sharing the database stored and leaves their jobs to
 * them (docs/deploy.md, "Several runners"); else none, and every deployment waits for a runner
 * (runtimeRegistry.ts, waitingFleet). `runner` is what platform.ts resumes and closes.
 */
export function chooseHosting(
  db: Db,
  box: SecretBox,
  choice: HostingChoice,
  options: ContainerHostingOptions,
): { fleet?: FleetAdapter; runner?: ContainerHosting } {
  if (choice.fleet) return { fleet: choice.fleet };
  if (choice.runner) {
    const runner = createContainerHosting(db, box, choice.runner, options);
    return { fleet: runner.fleet, runner };
  }
  return { fleet: choice.sharedDatabase ? new LeasedFleet(db, box, { local: null }) : undefined };
}

export function createContainerHosting(
  db: Db,
  box: SecretBox,
  config: ContainerRunnerConfig,
  options: ContainerHostingOptions = {},
): ContainerHosting {
  const logs = new DeploymentLogWriter(db, options.notifyChannel ?? null, options.jobLogWebhooks ?? (async () => {}));
  // Once per runner, at start: the container's root would be the host's (docs/security.md).
  if (config.usernsWarning) log.warn({ userns: config.userns }, config.usernsWarning);
  const engine = ContainerEngine.fromDockerHost(config.dockerHost, {
    reach: config.reach,
    sandbox: config.sandbox,
    userns: config.userns,
    platform: options.platform,
    registries: options.imageRegistries,
  });
  const imported = new Set<string>();
  // Reports arrive faster than the database takes them; each service's are written in order.
  const writes = new Map<string, Promise<void>>();
  // The rollout each service's reports last stored: it is written when it changes, never again
  // with every report, so a save's `pending` (queries.ts, upsertHosting) stays until
  // the runner takes the new image up (docs/publishing.md, "Rollouts").
  const rollouts = new Map<string, string>();
  const fleet = new DockerFleet({
    engine,
    warm: config.warm,
    memoryCapMb: config.memoryCapMb,
    gpu: config.gpu,
    gpuDevices: config.gpuDevices,
    capacityMb: config.capacityMb,
    pullTimeoutMs: config.pullTimeoutMs,
    snapshots: snapshotTierFor(config, engine.docker),
    // Images of the platform's registry were counted at push (registry/unpacked.ts).
    pullCheck: new PullCheck({ platformRegistryHost: options.registry?.host }),
    imageMaxMbOf: async (serviceId) => {
      const owner = await selectServiceOwner(db, serviceId);
      return owner ? hostingQuotaOf(await activePlanOf(db, owner)).imageMb : undefined;
    },
    onLog: (serviceId, line) => logs.add(serviceId, line),
    onReport: (serviceId, report, baseUrl) => {
      const previous = writes.get(serviceId) ?? Promise.resolve();
      const rollout = JSON.stringify(report.rollout ?? null);
      const rolloutChanged = rollouts.get(serviceId) !== rollout;
      rollouts.set(serviceId, rollout);
      const next = previous
        .then(async () => {
          await storeReport(db, serviceId, report, baseUrl, rolloutChanged);
          if (report.status === 'running' && baseUrl && !imported.has(serviceId)) {
            imported.add(serviceId);
            await options.importEndpoints?.(serviceId, baseUrl);
          }
        })
        .catch((error: Error) => log.warn({ serviceId, err: error }, 'storing a deployment report failed'));
      writes.set(serviceId, next);
    },
    jobs: {
      coldStart: (jobId, coldStartMs, tier) => void options.jobColdStart?.(jobId, coldStartMs, tier).catch(() => undefined),
      log: (jobId, line, deploymentId) => logs.add(deploymentId, line, jobId),
      jobDone: (jobId) => logs.jobDone(jobId),
    },
  });

  const leased = new LeasedFleet(db, box, {
    local: options.registry ? withPlatformRegistryPulls(fleet, options.registry, (id) => selectServiceOwner(db, id)) : fleet,
    // A takeover on this engine: the dead holder's containers and network go first.
    removeLeftovers: (serviceId) => engine.removeDeployment(serviceId),
  });

  return {
    fleet: leased,
    async resume() {
      await fleet.prepare();
      // What the database does not know (a crash, a service deleted while no runner ran) goes,
      // beside the first deploys: a deployment made meanwhile is known to the fleet or the database.
      void fleet
        .sweep(async () => {
          const known = new Set((await selectContainerRuntimes(db)).map((r) => r.model_id));
          return (id) => known.has(id);
        })
        .then((swept) => {
          if (swept.containers + swept.networks + swept.volumes > 0) log.info(swept, 'removed orphaned containers, networks and volumes');
        })
        .catch((error: Error) => log.warn({ err: error }, 'sweeping orphaned containers failed'));
      await leased.start();
    },
    async close() {
      await leased.close();
      await Promise.all(writes.values());
      await logs.flush();
    },
  };
}
