import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../crypto/secretBox';
import type { Db } from '../db/types';
import { log } from '../log';
import { openCredential } from '../profile/registryCredentials';
import { deployedSecretEnv, secretEnvOf } from '../secrets/env';
import { claimLease, LEASE_RENEW_MS, LEASE_TTL_MS, releaseLease } from './deploymentLeases';
import { DEFAULT_CONCURRENCY, DEFAULT_HEALTH_PATH, DEFAULT_PORT, DEFAULT_RESOURCES, resourcesOfRow } from './contract';
import { deploymentsHeldByOthers, selectContainerRuntimes, selectHosting } from './queries';
import { CONTAINER_RUNTIME } from './runtimeRegistry';
import { RuntimeError, type Runtime } from '../runtimes/runtime';
import {
  WAITING_DETAIL,
  type ContainerSpec,
  type DeploymentReport,
  type DeploymentStatus,
  type FleetAdapter,
  type Rollout,
  type RolloutStatus,
} from './fleet';

// Several processes, several hosts on one database (docs/deploy.md, "Several runners"): exactly
// one process manages a deployment, the one holding its lease. Every LEASE_RENEW_MS each runner
// renews the leases it holds, takes the free or expired ones of the stored container services
// (a takeover when their holder died), deploys what it took, applies saved changes to what it
// holds, and stops what was deleted or paused. Jobs of a container service are claimed only by
// the holder's worker (heldDeployments, read by the job claim); every other process answers the
// deployment's status from the database, where the holder stores its reports. A process without
// a runner (`local` null: the API processes of a fleet) only does the latter.

type RuntimeRow = Awaited<ReturnType<typeof selectContainerRuntimes>>[number];

/** What the runner deploys for a stored runtime row; also its revision (a change redeploys). */
async function specOf(db: Db, box: SecretBox, row: RuntimeRow): Promise<ContainerSpec> {
  const registryAuth = row.registry_credential_id ? await openCredential(db, box, row.registry_credential_id) : undefined;
  return {
    serviceId: row.model_id,
    image: row.image ?? '',
    ...(registryAuth ? { registryAuth } : {}),
    gpu: row.gpu ?? '',
    minInstances: row.min_instances ?? 0,
    maxInstances: row.max_instances ?? 1,
    idleTimeoutS: row.idle_timeout_s ?? 300,
    ...(row.port !== null ? { port: row.port } : {}),
    ...(row.health_path !== null ? { healthPath: row.health_path } : {}),
    ...(row.concurrency !== null ? { concurrency: row.concurrency } : {}),
    resources: resourcesOfRow(row),
    // Only when off: null (saved before migration 023) and true are the default.
    ...(row.snapshot === false ? { snapshot: false } : {}),
    env: await secretEnvOf(db, box, row.model_id),
    ...(row.secrets_deployed !== null ? { secretsRevision: row.secrets_deployed } : {}),
  };
}

/**
 * A spec's revision, one format however the spec was built (the owner's save omits port,
 * health_path and concurrency; a renewal reads the stored row): defaults filled in, fields in a
 * fixed order. A changed revision redeploys; the same one is left alone.
 */
export function revisionOf(spec: ContainerSpec): string {
  const auth = spec.registryAuth;
  return JSON.stringify([
    spec.serviceId,
    spec.image,
    auth ? [auth.registry, auth.username, auth.password] : null,
    spec.gpu,
    spec.minInstances,
    spec.maxInstances,
    spec.idleTimeoutS,
    spec.port ?? DEFAULT_PORT,
    spec.healthPath ?? DEFAULT_HEALTH_PATH,
    spec.concurrency ?? DEFAULT_CONCURRENCY,
    // A change of resources rolls the deployment (new limits); absent ones are the defaults.
    ...(({ cpu, memoryMb, gpu }) => [cpu, memoryMb, gpu])({ ...DEFAULT_RESOURCES, ...spec.resources }),
    // Turning snapshots off or on rolls the deployment too (its snapshot goes when off).
    spec.snapshot !== false,
    // The secrets as the last deploy recorded them, not as they are: a change alone rolls nothing,
    // a deploy after it (made by any process) does (docs/publishing.md, "Secrets").
    spec.secretsRevision ?? null,
  ]);
}

export interface LeasedFleetOptions {
  /** This process's runner; null for a process that runs no containers (it defers to the fleet). */
  local: (FleetAdapter & { close(): Promise<void> }) | null;
  /** Removes a deployment's leftovers on this engine (a dead holder's containers) before a takeover. */
  removeLeftovers?: (serviceId: string) => Promise<void>;
  renewMs?: number;
  ttlMs?: number;
}

export class LeasedFleet implements FleetAdapter {
  readonly name: string;
  /** This process, as lease holder: host, pid and a random part (a restarted pid is someone else). */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly held = new Map<string, string>(); // service id → deployed spec revision
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly options: LeasedFleetOptions,
  ) {
    this.name = options.local?.name ?? 'fleet';
  }

  private get renewMs() {
    return this.options.renewMs ?? LEASE_RENEW_MS;
  }

  private get ttlMs() {
    return this.options.ttlMs ?? LEASE_TTL_MS;
  }

  /** Takes the deployments it can at once, then keeps its leases on a timer. */
  async start(): Promise<void> {
    if (!this.options.local) return;
    await this.tick();
    const loop = () => {
      if (this.closed) return;
      this.timer = setTimeout(() => {
        this.ticking = this.tick().finally(loop);
      }, this.renewMs);
    };
    loop();
  }

  heldDeployments(): readonly string[] {
    return [...this.held.keys()];
  }

  async deploy(saved: ContainerSpec): Promise<DeploymentReport> {
    // Every deploy (a save, a rollback) starts the instances with the secrets as they are now,
    // and records them as deployed, for the holder's renewal when another process holds the lease.
    const secrets = await deployedSecretEnv(this.db, this.box, saved.serviceId);
    const spec: ContainerSpec = { ...saved, env: secrets.env, secretsRevision: secrets.fingerprint };
    const local = this.options.local;
    // The owner saved: this process deploys when it holds (or can take) the lease; otherwise the
    // holder applies the saved row on its next renewal.
    if (local && !this.closed && (await claimLease(this.db, spec.serviceId, this.holder, this.ttlMs))) {
      if (!this.held.has(spec.serviceId)) await this.options.removeLeftovers?.(spec.serviceId);
      const report = await local.deploy(spec);
      // Held (so this worker claims its jobs) only once the runner knows the deployment.
      this.held.set(spec.serviceId, revisionOf(spec));
      return report;
    }
    return this.stored(spec.serviceId);
  }

  async status(serviceId: string): Promise<DeploymentReport> {
    if (this.options.local && this.held.has(serviceId)) return this.options.local.status(serviceId);
    return this.stored(serviceId);
  }

  async instanceUrl(serviceId: string, options: { signal: AbortSignal }): Promise<string> {
    return this.localFor(serviceId).instanceUrl(serviceId, options);
  }

  runtimeFor(serviceId: string): Runtime {
    const local = this.options.local;
    if (local?.runtimeFor && this.held.has(serviceId)) {
      try {
        return local.runtimeFor(serviceId);
      } catch (error) {
        // Stopped between the claim and the run (deleted, or the lease lost): the job fails with why.
        return { name: CONTAINER_RUNTIME.name, run: async () => Promise.reject(error) };
      }
    }
    // Named like the holder's runtime (jobs record it at creation); never run here, since this
    // process's worker does not claim the service's jobs.
    return {
      name: CONTAINER_RUNTIME.name,
      run: async () => {
        throw new RuntimeError('not_holder', `${serviceId} is managed by another runner process`);
      },
    };
  }

  async stop(serviceId: string): Promise<void> {
    if (!this.options.local || !this.held.has(serviceId)) return; // the holder stops it on its next renewal
    this.held.delete(serviceId);
    await this.options.local.stop(serviceId);
    await releaseLease(this.db, serviceId, this.holder);
  }

  async logs(serviceId: string, options: { tail: number }): Promise<string[]> {
    return this.options.local?.logs && this.held.has(serviceId) ? this.options.local.logs(serviceId, options) : [];
  }

  /** Stops renewing, removes this process's containers and gives its leases up (others take over at once). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    const ids = [...this.held.keys()];
    this.held.clear();
    await this.options.local?.close();
    await Promise.all(ids.map((id) => releaseLease(this.db, id, this.holder).catch(() => undefined)));
  }

  private localFor(serviceId: string): FleetAdapter {
    if (!this.options.local || !this.held.has(serviceId)) {
      throw new RuntimeError('not_holder', `${serviceId} is managed by another runner process`);
    }
    return this.options.local;
  }

  /** The holder's latest report, as stored in model_hosting. */
  private async stored(serviceId: string): Promise<DeploymentReport> {
    const row = await selectHosting(this.db, 'model_id', serviceId);
    const status = (row?.status ?? 'stopped') as DeploymentStatus;
    const detail = row?.message ?? (status === 'waiting_for_runner' ? WAITING_DETAIL : status);
    const rollout: Rollout | undefined =
      row?.rollout_image && row.rollout_status
        ? { image: row.rollout_image, status: row.rollout_status as RolloutStatus, message: row.rollout_message ?? '' }
        : undefined;
    return { status, message: detail, detail, instances: row?.instances ?? 0, ...(rollout ? { rollout } : {}) };
  }

  /** One renewal round: renew or lose held leases, take free ones, apply saved changes, stop deleted. */
  private async tick(): Promise<void> {
    const local = this.options.local;
    if (!local || this.closed) return;
    try {
      const rows = await selectContainerRuntimes(this.db);
      const wanted = new Map(rows.map((r) => [r.model_id, r]));
      for (const id of [...this.held.keys()]) {
        if (wanted.has(id)) continue;
        // Deleted, paused or no longer a container: its containers go, and so does the lease.
        await this.stop(id);
      }
      const others = new Set(await deploymentsHeldByOthers(this.db, this.holder));
      for (const row of rows) {
        const id = row.model_id;
        if (this.closed) return;
        if (others.has(id) && !this.held.has(id)) continue;
        if (!(await claimLease(this.db, id, this.holder, this.ttlMs))) {
          if (this.held.delete(id)) {
            // Lost (this process stalled past the TTL and another took over): stop serving it.
            log.warn({ serviceId: id }, 'deployment lease lost to another runner; stopping its containers here');
            await local.stop(id);
          }
          continue;
        }
        const spec = await specOf(this.db, this.box, row);
        const revision = revisionOf(spec);
        const previous = this.held.get(id);
        if (previous === revision) continue;
        if (previous === undefined) await this.options.removeLeftovers?.(id);
        await local.deploy(spec);
        this.held.set(id, revision);
      }
    } catch (error) {
      log.warn({ err: error }, 'deployment lease round failed; retrying at the next renewal');
    }
  }
}
