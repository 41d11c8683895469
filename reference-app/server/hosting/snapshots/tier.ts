import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import type { ResourceLimits } from '../limits';
import { log } from '../../log';
import type { ContainerRunnerConfig } from '../config';
import { type ImageConfig, type Restored, RunscSnapshots, type Snapshot, SnapshotError, snapshotUnavailableReason } from './runsc';

// The runner's snapshot tier (CONTAINER_SANDBOX=gvisor with CONTAINER_SNAPSHOTS=on; docs/deploy.md,
// "Snapshot cold starts"): one memory snapshot per deployment and image digest, taken in the
// background once an instance of a new digest has started cold; every later start from zero
// restores it. A failed snapshot or restore is said on the deployment's log and the instance
// starts cold, so a snapshot never makes an outage; a new digest tries again.

/** What a snapshot is taken of: the image by digest and what every instance shares. */
export interface SnapshotSource {
  deploymentId: string;
  /** repository@sha256:…, the deployment's own pull (a tag never names a snapshot). */
  image: string;
  port: number;
  limits: ResourceLimits;
  env?: Record<string, string>;
}

export type SnapshotState =
  { status: 'taking' } | { status: 'ready'; snapshot: Snapshot } | { status: 'failed'; reason: string } | { status: 'none' };

/** The key of a deployment's snapshot of one digest: its folder's name. */
export function snapshotKey(deploymentId: string, image: string): string {
  return `${deploymentId}-${createHash('sha256').update(image).digest('hex').slice(0, 16)}`;
}

/** The image's command, environment and folder, from the engine (what `podman run` would use). */
export async function imageConfig(docker: Docker, image: string): Promise<ImageConfig> {
  const info = (await docker.getImage(image).inspect()) as {
    Config?: { Env?: string[] | null; Entrypoint?: string[] | null; Cmd?: string[] | null; WorkingDir?: string };
  };
  const config = info.Config ?? {};
  return { env: config.Env ?? [], cmd: [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])], workingDir: config.WorkingDir || '/' };
}

/** The variable `snapshot: false` in limelight.yaml sets in the image (sdk/python limelight/cli/build.py). */
export const OPT_OUT_ENV = 'LIMELIGHT_SNAPSHOT';

/**
 * Why a service is never snapshotted when its image's environment (`KEY=value` lines) or the
 * service's own environment has LIMELIGHT_SNAPSHOT=off; null otherwise. The service's value wins,
 * as it does in the container.
 */
export function optOutOf(imageEnv: readonly string[], serviceEnv?: Record<string, string>): string | null {
  let value = serviceEnv?.[OPT_OUT_ENV];
  let where = "the service's environment";
  if (value === undefined) {
    const line = [...imageEnv].reverse().find((entry) => entry.startsWith(`${OPT_OUT_ENV}=`));
    value = line?.slice(OPT_OUT_ENV.length + 1);
    where = 'its image';
  }
  if (value?.toLowerCase() !== 'off') return null;
  return `the service opted out (${OPT_OUT_ENV}=off in ${where}; snapshot: false in limelight.yaml sets it)`;
}

export interface SnapshotTierOptions {
  docker: Docker;
  /** Until the app reaches its snapshot point (its setup included). */
  takeTimeoutMs?: number;
}

/** The snapshots of one runner, by key. */
export class SnapshotTier {
  readonly #states = new Map<string, SnapshotState>();
  readonly #taking = new Map<string, Promise<void>>();

  constructor(
    readonly snapshots: RunscSnapshots,
    private readonly options: SnapshotTierOptions,
  ) {}

  state(key: string): SnapshotState {
    return this.#states.get(key) ?? { status: 'none' };
  }

  /** The snapshot to restore, or null (none yet, being taken, or it failed). */
  ready(key: string): Snapshot | null {
    const state = this.state(key);
    return state.status === 'ready' ? state.snapshot : null;
  }

  /**
   * Takes the snapshot of `source` once (a second call while it runs, or after it ended, does
   * nothing). `log` hears what happened in the deployment's words.
   */
  take(source: SnapshotSource, log: (message: string) => void): Promise<void> {
    const key = snapshotKey(source.deploymentId, source.image);
    if (this.#states.has(key)) return this.#taking.get(key) ?? Promise.resolve();
    this.#states.set(key, { status: 'taking' });
    const taking = (async () => {
      try {
        const config = await imageConfig(this.options.docker, source.image);
        // `snapshot: false` in limelight.yaml bakes LIMELIGHT_SNAPSHOT=off into the image (and the
        // service's environment may say the same): declined here, before any sandbox starts, so an
        // opted-out digest costs nothing (docs/deploy.md, "Snapshot cold starts").
        const optedOut = optOutOf(config.env, source.env);
        if (optedOut) {
          if (this.#states.has(key)) this.#states.set(key, { status: 'failed', reason: optedOut });
          log(`No snapshot of this version: ${optedOut}. Instances start cold.`);
          return;
        }
        const snapshot = await this.snapshots.take({
          key,
          image: source.image,
          config,
          env: { PORT: String(source.port), ...source.env },
          limits: source.limits,
          timeoutMs: this.options.takeTimeoutMs ?? 600_000,
        });
        // Removed meanwhile (the deployment deleted or rolled): the snapshot goes too.
        if (!this.#states.has(key)) {
          await this.snapshots.remove(snapshot);
          return;
        }
        this.#states.set(key, { status: 'ready', snapshot });
        log(
          `Snapshot taken: ${(snapshot.sizeBytes / 2 ** 20).toFixed(1)} MB in ${snapshot.tookMs} ms; a start from zero restores it (docs/deploy.md, "Snapshot cold starts")`,
        );
      } catch (error) {
        const reason = error instanceof SnapshotError ? error.message : `the snapshot failed: ${(error as Error).message}`;
        if (this.#states.has(key)) this.#states.set(key, { status: 'failed', reason });
        log(`No snapshot of this version: ${reason}. Instances start cold; the next version tries again.`);
      } finally {
        this.#taking.delete(key);
      }
    })();
    this.#taking.set(key, taking);
    return taking;
  }

  /** A new instance from the key's snapshot (the caller has checked ready()). */
  async restore(
    key: string,
    port: number,
    env?: Record<string, string>,
    output?: (stream: 'stdout' | 'stderr', line: string) => void,
  ): Promise<Restored> {
    const snapshot = this.ready(key);
    if (!snapshot) throw new SnapshotError('No snapshot to restore');
    const restored = await this.snapshots.restore(snapshot, { port, env, output });
    // The next restore's namespace is made now, off its path (it holds no memory).
    void this.snapshots.prepareNamespaces(1).catch(() => undefined);
    return restored;
  }

  /** Removes every snapshot of a deployment (deleted, stopped, or rolled to another digest: `keep`). */
  async removeDeployment(deploymentId: string, keep?: string): Promise<void> {
    const mine = [...this.#states.keys()].filter((key) => key.startsWith(`${deploymentId}-`) && key !== keep);
    for (const key of mine) {
      const state = this.#states.get(key)!;
      this.#states.delete(key);
      await this.#taking.get(key)?.catch(() => undefined);
      if (state.status === 'ready') await this.snapshots.remove(state.snapshot);
    }
  }

  /** Bytes of a deployment's snapshots on disk (counted in its owner's storage). */
  bytesOf(deploymentId: string): number {
    let total = 0;
    for (const [key, state] of this.#states)
      if (key.startsWith(`${deploymentId}-`) && state.status === 'ready') total += state.snapshot.sizeBytes;
    return total;
  }
}

/**
 * The runner's tier when CONTAINER_SNAPSHOTS=on, or undefined. A host that cannot take snapshots
 * (not root, no runsc, unshare or ip) says why once and runs every start as before.
 */
export function snapshotTierFor(config: Pick<ContainerRunnerConfig, 'snapshots'>, docker: Docker): SnapshotTier | undefined {
  if (!config.snapshots) return undefined;
  const unavailable = snapshotUnavailableReason();
  if (unavailable) {
    log.warn(
      { snapshots: config.snapshots.dir },
      `CONTAINER_SNAPSHOTS=on, but no snapshot can be taken here: ${unavailable}; starts stay cold`,
    );
    return undefined;
  }
  return new SnapshotTier(new RunscSnapshots({ root: config.snapshots.dir }), { docker });
}
