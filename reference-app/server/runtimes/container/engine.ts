import { createRequire } from 'node:module';
import type Docker from 'dockerode';
import { isolatedHostConfig, type ResourceLimits } from './limits';
import { DockerLogDemuxer, type LogRing } from './logRing';

// The runner's only door to the container engine (docs/publishing.md, "Running containers"):
// the Docker Engine API through dockerode, so the same calls drive Docker and Podman's
// Docker-compatible service. Everything the platform creates carries the MANAGED_LABEL, so a
// cleanup can find it all again after a crash.

export const MANAGED_LABEL = 'io.limelight.managed';
export const DEPLOYMENT_LABEL = 'io.limelight.deployment';

/** A failure the owner should read (engine's or health check's words), e.g. "unauthorized". */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly stage: 'pull' | 'create' | 'start' | 'health' | 'engine',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface RegistryAuth {
  username: string;
  password: string;
  /** host[:port], e.g. docker.io or 127.0.0.1:5000. */
  serveraddress: string;
}

export interface InstanceSpec {
  deploymentId: string;
  image: string;
  /** The port the image serves HTTP on (the runtime's `port`, default 8080). */
  port: number;
  limits: ResourceLimits;
  gpu: 'none' | 'docker' | 'cdi';
  env?: Record<string, string>;
}

export interface EngineOptions {
  /**
   * How the platform reaches a container: `internal` (default) puts each deployment on its own
   * internal network (no route out) and calls the container's address on it; `published` uses a
   * routed network and publishes the port on 127.0.0.1, for engines whose container addresses
   * the host cannot reach (Docker Desktop).
   */
  reach?: 'internal' | 'published';
}

/**
 * dockerode is loaded only when a runner is turned on, so a server without one (and its
 * production image, which does not ship dockerode) never needs it.
 */
const loadDockerode = () => createRequire(import.meta.url)('dockerode') as typeof Docker;

/** Parses DOCKER_HOST (unix:///path, tcp://host:port, http(s)://host:port) for dockerode. */
export function dockerFromHost(dockerHost: string): Docker {
  const Docker = loadDockerode();
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname });
  if (url.protocol === 'tcp:' || url.protocol === 'http:' || url.protocol === 'https:') {
    return new Docker({ host: url.hostname, port: Number(url.port || 2375), protocol: url.protocol === 'https:' ? 'https' : 'http' });
  }
  throw new Error(`DOCKER_HOST must be unix:///path or tcp://host:port, not ${dockerHost}`);
}

export const networkName = (deploymentId: string) => `limelight-${deploymentId}`;

function reasonOf(error: unknown): string {
  const e = error as { json?: { message?: string; cause?: string }; message?: string };
  return (e.json?.message ?? e.message ?? String(error)).trim();
}

export class ContainerEngine {
  readonly reach: 'internal' | 'published';
  /** Network creations in flight, by name (ensureNetwork). */
  readonly #networks = new Map<string, Promise<string>>();

  constructor(
    readonly docker: Docker,
    options: EngineOptions = {},
  ) {
    this.reach = options.reach ?? 'internal';
  }

  static fromDockerHost(dockerHost: string, options?: EngineOptions): ContainerEngine {
    return new ContainerEngine(dockerFromHost(dockerHost), options);
  }

  async ping(): Promise<void> {
    try {
      await this.docker.ping();
    } catch (error) {
      throw new EngineError('engine', `The container engine does not answer: ${reasonOf(error)}`, { cause: error });
    }
  }

  /** Pulls an image; the credential goes to the engine for this pull only (X-Registry-Auth). */
  async pull(image: string, auth?: RegistryAuth): Promise<void> {
    let events: { error?: string }[];
    try {
      const stream = await this.docker.pull(image, auth ? { authconfig: auth } : {});
      events = await new Promise((resolve, reject) =>
        this.docker.modem.followProgress(stream, (error, output) => (error ? reject(error) : resolve(output as { error?: string }[]))),
      );
    } catch (error) {
      throw new EngineError('pull', `Pulling ${image} failed: ${reasonOf(error)}`, { cause: error });
    }
    // The engine reports a failed pull inside the progress stream, with a 200 status.
    const failed = events.find((e) => e.error);
    if (failed) throw new EngineError('pull', `Pulling ${image} failed: ${failed.error}`);
  }

  async hasImage(image: string): Promise<boolean> {
    try {
      await this.docker.getImage(image).inspect();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The deployment's own network: internal (no route out) unless the engine reaches by published
   * port. Safe to call at the same time for one deployment (a deploy starts its first instance
   * and its paused spares together): calls in this process share one creation, and a creation
   * that fails because another process made the network first is a success. Podman answers a
   * name already taken with 500, Docker with 409, so the network is looked up again rather than
   * the status trusted.
   */
  ensureNetwork(deploymentId: string): Promise<string> {
    const name = networkName(deploymentId);
    let pending = this.#networks.get(name);
    if (!pending) {
      pending = this.#createNetwork(name, deploymentId).finally(() => this.#networks.delete(name));
      this.#networks.set(name, pending);
    }
    return pending;
  }

  async #networkExists(name: string): Promise<boolean> {
    try {
      await this.docker.getNetwork(name).inspect();
      return true;
    } catch {
      return false;
    }
  }

  async #createNetwork(name: string, deploymentId: string): Promise<string> {
    if (await this.#networkExists(name)) return name;
    try {
      await this.docker.createNetwork({
        Name: name,
        Driver: 'bridge',
        Internal: this.reach === 'internal',
        Labels: { [MANAGED_LABEL]: 'true', [DEPLOYMENT_LABEL]: deploymentId },
      });
    } catch (error) {
      if (!(await this.#networkExists(name))) throw new EngineError('create', reasonOf(error), { cause: error });
    }
    return name;
  }

  async create(spec: InstanceSpec): Promise<string> {
    const network = await this.ensureNetwork(spec.deploymentId);
    try {
      const container = await this.docker.createContainer({
        Image: spec.image,
        Env: Object.entries({ PORT: String(spec.port), ...spec.env }).map(([k, v]) => `${k}=${v}`),
        ExposedPorts: { [`${spec.port}/tcp`]: {} },
        Labels: { [MANAGED_LABEL]: 'true', [DEPLOYMENT_LABEL]: spec.deploymentId },
        HostConfig: isolatedHostConfig({
          limits: spec.limits,
          network,
          gpu: spec.gpu,
          publishPort: this.reach === 'published' ? spec.port : undefined,
        }),
      });
      return container.id;
    } catch (error) {
      throw new EngineError('create', `Creating a container from ${spec.image} failed: ${reasonOf(error)}`, { cause: error });
    }
  }

  async start(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).start();
    } catch (error) {
      throw new EngineError('start', `Starting the container failed: ${reasonOf(error)}`, { cause: error });
    }
  }

  /** The URL at which the platform reaches a started container's service. */
  async baseUrl(id: string, port: number): Promise<string> {
    const info = await this.docker.getContainer(id).inspect();
    if (this.reach === 'published') {
      const binding = info.NetworkSettings.Ports?.[`${port}/tcp`]?.[0];
      if (!binding) throw new EngineError('start', 'The engine published no port for the container');
      return `http://127.0.0.1:${binding.HostPort}`;
    }
    const address = Object.values(info.NetworkSettings.Networks ?? {}).find((n) => n.IPAddress)?.IPAddress;
    if (!address) throw new EngineError('start', 'The container has no network address');
    return `http://${address}:${port}`;
  }

  async pause(id: string): Promise<void> {
    await this.docker.getContainer(id).pause();
  }

  async unpause(id: string): Promise<void> {
    await this.docker.getContainer(id).unpause();
  }

  /** State as the engine sees it; `oomKilled` says the memory limit ended it. */
  async state(id: string): Promise<{ running: boolean; paused: boolean; exitCode: number; oomKilled: boolean; error: string } | null> {
    try {
      const { State } = await this.docker.getContainer(id).inspect();
      return { running: State.Running, paused: State.Paused, exitCode: State.ExitCode, oomKilled: State.OOMKilled, error: State.Error };
    } catch {
      return null;
    }
  }

  /**
   * Why a container is no longer running, in words for the owner. Podman on cgroup v1 does not
   * set OOMKilled, so a SIGKILL the runner did not send (exit 137) is read as the memory limit:
   * the only other sender of SIGKILL to a container is the kernel's OOM killer.
   */
  async exitReason(id: string, memoryMb: number): Promise<string | null> {
    const state = await this.state(id);
    if (!state || state.running) return null;
    if (state.oomKilled || state.exitCode === 137) return `The container was killed: it exceeded its memory limit of ${memoryMb} MB`;
    if (state.error) return `The container stopped: ${state.error}`;
    return `The container exited with code ${state.exitCode}`;
  }

  /** Stops and removes a container; a missing one is already gone. */
  async remove(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).remove({ force: true, v: true });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
  }

  async containersOf(deploymentId?: string): Promise<string[]> {
    const label = deploymentId ? `${DEPLOYMENT_LABEL}=${deploymentId}` : `${MANAGED_LABEL}=true`;
    const list = await this.docker.listContainers({ all: true, filters: { label: [label] } });
    return list.map((c) => c.Id);
  }

  /** Removes a deployment's containers and its network (delete, pause, or a failed deploy). */
  async removeDeployment(deploymentId: string): Promise<void> {
    await Promise.all((await this.containersOf(deploymentId)).map((id) => this.remove(id)));
    try {
      await this.docker.getNetwork(networkName(deploymentId)).remove();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    }
  }

  /** Removes everything the platform ever created on this engine (tests, benchmarks, a reset). */
  async removeAllManaged(): Promise<void> {
    await Promise.all((await this.containersOf()).map((id) => this.remove(id)));
    const networks = await this.docker.listNetworks({ filters: { label: [`${MANAGED_LABEL}=true`] } });
    await Promise.all(
      networks.map((n) =>
        this.docker
          .getNetwork(n.Id)
          .remove()
          .catch(() => undefined),
      ),
    );
  }

  /** Follows a container's stdout and stderr into the ring until it ends; returns a stop function. */
  async followLogs(id: string, ring: LogRing, instance: string): Promise<() => void> {
    const stream = (await this.docker.getContainer(id).logs({ follow: true, stdout: true, stderr: true })) as NodeJS.ReadableStream & {
      destroy?: () => void;
    };
    const demux = new DockerLogDemuxer((kind, text) => ring.push(kind, instance, text));
    stream.on('data', (chunk: Buffer) => demux.write(chunk));
    stream.on('end', () => demux.end());
    stream.on('error', () => demux.end());
    return () => stream.destroy?.();
  }

  /** The last lines a (possibly exited) container wrote, for a failure message. */
  async lastLogLines(id: string, count = 20): Promise<string[]> {
    try {
      const buffer = (await this.docker
        .getContainer(id)
        .logs({ stdout: true, stderr: true, tail: count, follow: false })) as unknown as Buffer;
      const lines: string[] = [];
      const demux = new DockerLogDemuxer((_kind, text) => lines.push(text));
      demux.write(buffer);
      demux.end();
      return lines;
    } catch {
      return [];
    }
  }
}

export interface ReadyOptions {
  healthPath: string;
  timeoutMs: number;
  /** Between attempts; connection refusals come back at once, so a short pause is cheap. */
  intervalMs?: number;
  /** Stops waiting when the container has died (its state says why). */
  isAlive?: () => Promise<boolean>;
}

/**
 * Polls the health path until it answers 2xx. The health gate: no job is sent to an instance
 * before it passes. Throws an EngineError('health') with the last reason.
 */
export async function waitReady(baseUrl: string, options: ReadyOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 5;
  let reason = 'no answer';
  let attempts = 0;
  while (Date.now() < deadline) {
    attempts += 1;
    try {
      const res = await fetch(new URL(options.healthPath, baseUrl), {
        signal: AbortSignal.timeout(Math.max(200, Math.min(2000, deadline - Date.now()))),
      });
      await res.body?.cancel();
      if (res.ok) return;
      reason = `GET ${options.healthPath} answered ${res.status}`;
    } catch (error) {
      reason = `GET ${options.healthPath}: ${(error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message}`;
    }
    // Checking the engine on every attempt would slow the fast path; every 20th is enough.
    if (options.isAlive && attempts % 20 === 0 && !(await options.isAlive()))
      throw new EngineError('health', 'The container exited before it answered');
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new EngineError('health', `The health check failed for ${Math.round(options.timeoutMs / 1000)} s: ${reason}`);
}
