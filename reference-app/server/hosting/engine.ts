import { createRequire } from 'node:module';
import type Docker from 'dockerode';
import { log } from '../log';
import { credentialRegistryProblem, imageRegistryProblem } from '../registry/allowedRegistries';
import { isolatedHostConfig, type ResourceLimits } from './limits';
import { createThroughLibpod } from './libpodCreate';
import { DockerLogDemuxer, type LogRing } from './logRing';

// The runner's only door to the container engine (docs/publishing.md, "Running containers"):
// the Docker Engine API through dockerode, so the same calls drive Docker and Podman's
// Docker-compatible service. Everything the platform creates carries the MANAGED_LABEL, so a
// cleanup can find it all again after a crash.

export const MANAGED_LABEL = 'io.limelight.managed';
export const DEPLOYMENT_LABEL = 'io.limelight.deployment';
/** Which platform (its public URL) made it: a sweep removes only its own platform's orphans. */
export const PLATFORM_LABEL = 'io.limelight.platform';

/** A failure the owner should read (engine's or health check's words), e.g. "unauthorized". */
export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly stage: 'pull' | 'create' | 'start' | 'health' | 'engine' | 'capacity',
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
  /** By digest (repository@sha256:…) once the deployment's own pull resolved it (Deployment). */
  image: string;
  /** The VOLUMEs the image declares: mounted as sized tmpfs (limits.ts), never as host volumes. */
  volumes?: string[];
  /** The port the image serves HTTP on (the runtime's `port`, default 8080). */
  port: number;
  limits: ResourceLimits;
  gpu: 'none' | 'docker' | 'cdi';
  /** The GPUs this container holds (gpuAllocator.ts), by their CDI names; set by the instance factory. */
  gpuDevices?: readonly string[];
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
  /** gvisor: every container runs under runsc (docs/security.md, "Sandbox tiers"); checked by checkSandbox. */
  sandbox?: 'none' | 'gvisor';
  /** auto: user namespaces (CONTAINER_USERNS; Podman's --userns=auto). */
  userns?: 'host' | 'auto';
  /** The platform's public URL, labelled on all it creates (PLATFORM_LABEL). */
  platform?: string;
  /** The registries images may be pulled from (CONTAINER_REGISTRIES and the platform's); unset: any. */
  registries?: readonly string[];
}

/** What a deployment's own pull resolved: the image by digest, its unpacked size and its VOLUMEs. */
export interface PulledImage {
  reference: string;
  sizeMb: number;
  volumes: string[];
}

/** `repo@sha256:…` of the pulled `image` from the engine's RepoDigests, or null (an image never pulled from a registry). */
export function digestReference(image: string, repoDigests: string[]): string | null {
  const withoutDigest = image.split('@')[0]!;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const repository = colon > lastSlash ? withoutDigest.slice(0, colon) : withoutDigest;
  const bare = (name: string) => name.replace(/^docker\.io\/(library\/)?/, '');
  return repoDigests.find((d) => bare(d.split('@')[0]!) === bare(repository)) ?? null;
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

/**
 * The X-Registry-Auth of a pull without a credential: an empty set of credentials, base64 of `{}`.
 * Without the header Podman's Docker API pulls with the logins stored on its host (the auth file
 * `podman login` writes, /run/containers/0/auth.json for root), so one tenant's pull would go out
 * with the operator's login and fetch another tenant's private image (issue 47). Podman 4.3 reads
 * an empty set as "no credential for any registry" and pulls anonymously; so does Docker. A
 * credential with an empty username counts as none: Podman falls back to the host's logins for it
 * too (both measured on Podman 4.3.1; docs/security.md, "Container hosting").
 */
export const ANONYMOUS_PULL = { base64: Buffer.from('{}').toString('base64') } as const;

/** What a pull sends the engine: the credential, or explicitly none (ANONYMOUS_PULL). */
export function pullAuthConfig(auth?: RegistryAuth): RegistryAuth | typeof ANONYMOUS_PULL {
  return auth?.username ? auth : ANONYMOUS_PULL;
}

/**
 * What an engine's error means, in words for the publisher. The engine's own text is not shown:
 * it names addresses and ports the engine tried from the host (a reference naming a loopback
 * port told open from closed apart), its storage paths and its version; the runner logs it.
 * `anonymous`: the pull went without a credential, so a refusal is about the one missing.
 */
export function meaningOfEngineError(stage: EngineError['stage'], raw: string, options: { anonymous?: boolean } = {}): string {
  if (stage === 'engine') return 'the container engine did not answer';
  if (stage === 'pull') {
    if (/unauthori[sz]ed|authentication required|denied|forbidden|no basic auth|\b40[13]\b/i.test(raw)) {
      return options.anonymous
        ? 'the registry refused a pull without a credential (save a registry credential for it and choose it for the service)'
        : 'the registry refused the credential (check the registry credential saved with the service)';
    }
    if (/manifest unknown|name unknown|not found|no such image|does not exist|\b404\b/i.test(raw)) {
      return 'the registry has no such image or tag';
    }
    if (/refused|no such host|timeout|timed out|unreachable|EOF|reset|tls|x509|certificate|HTTP response|dial|lookup/i.test(raw)) {
      return 'the registry did not answer';
    }
  }
  return 'the container engine refused it (its own words are in the runner’s log)';
}

/**
 * What the publisher reads of a failure: an EngineError's message (already in their words), any
 * other error (a raw engine answer from pause, inspect, …) logged and named only as the engine's.
 */
export function publisherReason(error: unknown): string {
  if (error instanceof EngineError) return error.message;
  log.warn({ engineError: reasonOf(error) }, 'container engine: a call failed');
  return 'The container engine failed (its own words are in the runner’s log)';
}

/** An EngineError in the publisher's words; the engine's own words go to the runner's log. */
function engineFailure(stage: EngineError['stage'], what: string, error: unknown, options: { anonymous?: boolean } = {}): EngineError {
  const raw = reasonOf(error);
  log.warn({ stage, engineError: raw }, `container engine: ${what} failed`);
  return new EngineError(stage, `${what} failed: ${meaningOfEngineError(stage, raw, options)}`, { cause: error });
}

export class ContainerEngine {
  readonly reach: 'internal' | 'published';
  readonly sandbox: 'none' | 'gvisor';
  readonly userns: 'host' | 'auto';
  readonly #labels: Record<string, string>;
  /** TS-private, not #: tests and wrappers extend an engine with Object.create. */
  private readonly registries: readonly string[] | undefined;
  /** Network creations in flight, by name (ensureNetwork). */
  readonly #networks = new Map<string, Promise<string>>();

  constructor(
    readonly docker: Docker,
    options: EngineOptions = {},
  ) {
    this.reach = options.reach ?? 'internal';
    this.sandbox = options.sandbox ?? 'none';
    this.userns = options.userns ?? 'host';
    this.#labels = { [MANAGED_LABEL]: 'true', ...(options.platform ? { [PLATFORM_LABEL]: options.platform } : {}) };
    this.registries = options.registries;
  }

  static fromDockerHost(dockerHost: string, options?: EngineOptions): ContainerEngine {
    return new ContainerEngine(dockerFromHost(dockerHost), options);
  }

  async ping(): Promise<void> {
    try {
      await this.docker.ping();
    } catch (error) {
      throw engineFailure('engine', 'Reaching the container engine', error);
    }
  }

  /** Why a pull of `image` with `auth` is refused before anyone is asked (see pull), or undefined. */
  pullRefusal(image: string, auth?: RegistryAuth): EngineError | undefined {
    const refused =
      (this.registries && imageRegistryProblem(image, this.registries)) ||
      (auth?.username ? credentialRegistryProblem(image, auth.serveraddress) : undefined);
    return refused ? new EngineError('pull', `Pulling ${image} refused: ${refused}`) : undefined;
  }

  /**
   * Pulls an image; the credential goes to the engine for this pull only (X-Registry-Auth), and
   * without one the pull says so (ANONYMOUS_PULL): never the logins stored on the engine's host. A
   * pull still running after `timeoutMs` is abandoned (its request closed) and fails, so a
   * registry that never answers cannot leave a deployment "deploying" forever. An image from a
   * registry off the list (EngineOptions.registries), or with a credential saved for another
   * registry (the engine would send it to the image's), is refused before the engine is asked.
   */
  async pull(image: string, auth?: RegistryAuth, timeoutMs = 600_000): Promise<void> {
    const refused = this.pullRefusal(image, auth);
    if (refused) throw refused;
    const authconfig = pullAuthConfig(auth);
    const anonymous = authconfig === ANONYMOUS_PULL;
    let events: { error?: string }[];
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const pulling = (async () => {
        const stream = await this.docker.pull(image, { authconfig, abortSignal: abort.signal });
        abort.signal.addEventListener('abort', () => (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.());
        return new Promise<{ error?: string }[]>((resolve, reject) =>
          this.docker.modem.followProgress(stream, (error, output) => (error ? reject(error) : resolve(output as { error?: string }[]))),
        );
      })();
      const timedOut = new Promise<never>((_, reject) =>
        abort.signal.addEventListener('abort', () =>
          reject(new EngineError('pull', `Pulling ${image} failed: the pull did not finish within ${Math.round(timeoutMs / 1000)} s`)),
        ),
      );
      pulling.catch(() => undefined);
      events = await Promise.race([pulling, timedOut]);
    } catch (error) {
      throw error instanceof EngineError ? error : engineFailure('pull', `Pulling ${image}`, error, { anonymous });
    } finally {
      clearTimeout(deadline);
    }
    // The engine reports a failed pull inside the progress stream, with a 200 status.
    const failed = events.find((e) => e.error);
    if (failed) throw engineFailure('pull', `Pulling ${image}`, new Error(failed.error), { anonymous });
  }

  /**
   * The pulled image by digest, with its unpacked size and declared VOLUMEs. Called right after
   * the deployment's own pull: containers are created from this reference only, so a tag
   * re-pushed later (or another tenant's copy in the engine's cache) never runs in its place.
   */
  async resolvePulled(image: string): Promise<PulledImage> {
    let info: { RepoDigests?: string[]; Size?: number; Config?: { Volumes?: Record<string, unknown> | null } };
    try {
      info = await this.docker.getImage(image).inspect();
    } catch (error) {
      throw engineFailure('pull', `Reading ${image} after its pull`, error);
    }
    const reference = digestReference(image, info.RepoDigests ?? []);
    if (!reference) throw new EngineError('pull', `The engine reports no digest for ${image}; only images pulled from a registry run`);
    return { reference, sizeMb: Math.ceil((info.Size ?? 0) / 2 ** 20), volumes: Object.keys(info.Config?.Volumes ?? {}) };
  }

  /** The VOLUMEs an image declares. */
  async imageVolumes(image: string): Promise<string[]> {
    const info = await this.docker.getImage(image).inspect();
    return Object.keys(info.Config?.Volumes ?? {});
  }

  /** Removes an image unless a container uses it (an image refused for its size). */
  async removeImage(image: string): Promise<void> {
    await this.docker
      .getImage(image)
      .remove()
      .catch(() => undefined);
  }

  /**
   * With CONTAINER_SANDBOX=gvisor, refuses to go on unless the engine really runs containers
   * under runsc: Podman's Docker API ignores a per-container runtime, so its service must have
   * runsc as its runtime (`node scripts/engine.mjs --sandbox gvisor`); Docker must list runsc
   * among its runtimes (daemon.json), and each container asks for it.
   */
  async checkSandbox(): Promise<void> {
    if (this.sandbox !== 'gvisor') return;
    const info = (await this.docker.info()) as { DefaultRuntime?: string; Runtimes?: Record<string, unknown> };
    const isPodman = await this.#isPodman();
    const ok = isPodman ? /runsc/.test(info.DefaultRuntime ?? '') : Object.keys(info.Runtimes ?? {}).includes('runsc');
    if (!ok) {
      throw new EngineError(
        'engine',
        isPodman
          ? `CONTAINER_SANDBOX=gvisor, but the Podman service runs ${info.DefaultRuntime ?? 'an unknown runtime'}, not runsc: start it with --runtime (node scripts/engine.mjs --sandbox gvisor)`
          : 'CONTAINER_SANDBOX=gvisor, but the Docker daemon has no runtime named runsc (register it in daemon.json)',
      );
    }
  }

  async #isPodman(): Promise<boolean> {
    const version = (await this.docker.version()) as { Components?: { Name?: string }[] };
    return (version.Components ?? []).some((c) => /podman/i.test(c.Name ?? ''));
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
        Labels: { ...this.#labels, [DEPLOYMENT_LABEL]: deploymentId },
      });
    } catch (error) {
      if (!(await this.#networkExists(name))) throw engineFailure('create', 'Creating the deployment’s network', error);
    }
    return name;
  }

  async create(spec: InstanceSpec): Promise<string> {
    const network = await this.ensureNetwork(spec.deploymentId);
    try {
      const body = {
        Image: spec.image,
        Env: Object.entries({ PORT: String(spec.port), ...spec.env }).map(([k, v]) => `${k}=${v}`),
        ExposedPorts: { [`${spec.port}/tcp`]: {} },
        Labels: { ...this.#labels, [DEPLOYMENT_LABEL]: spec.deploymentId },
        HostConfig: isolatedHostConfig({
          limits: spec.limits,
          network,
          gpu: spec.gpu,
          ...(spec.gpuDevices ? { gpuDevices: spec.gpuDevices } : {}),
          publishPort: this.reach === 'published' ? spec.port : undefined,
          imageVolumes: spec.volumes,
          ...(this.userns === 'auto' ? { userns: 'auto' as const } : {}),
          // Docker honours a per-container runtime; Podman's service was started with runsc.
          ...(this.sandbox === 'gvisor' ? { runtime: 'runsc' } : {}),
        }),
      };
      // CDI devices are resolved by Podman's own API only (libpodCreate.ts).
      if (spec.gpu === 'cdi' && spec.gpuDevices?.length) return await createThroughLibpod(this.docker, body);
      const container = await this.docker.createContainer(body);
      return container.id;
    } catch (error) {
      throw engineFailure('create', `Creating a container from ${spec.image}`, error);
    }
  }

  async start(id: string): Promise<void> {
    try {
      await this.docker.getContainer(id).start();
    } catch (error) {
      throw engineFailure('start', 'Starting the container', error);
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
   * Why a container is no longer running, in words for the owner. Out of memory only when the
   * engine says so (OOMKilled): a SIGKILL (exit 137) has other senders, and calling it the memory
   * limit would send the owner after the wrong cause.
   */
  async exitReason(id: string, memoryMb: number): Promise<string | null> {
    const state = await this.state(id);
    if (!state || state.running) return null;
    if (state.oomKilled) return `The container was killed: it exceeded its memory limit of ${memoryMb} MB`;
    if (state.exitCode === 137) {
      return `The container was killed (SIGKILL, exit code 137) and the engine did not say why; a process that reaches its memory limit of ${memoryMb} MB ends this way`;
    }
    if (state.error) {
      log.warn({ container: id, engineError: state.error }, 'container engine: the container stopped with an error');
      return 'The container stopped: the container engine reported an error (its own words are in the runner’s log)';
    }
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

  /**
   * Removes what this platform manages (its labels) but no deployment knows: containers,
   * networks and volumes left by a crash or by a deployment deleted while the runner was down.
   * Runs when a runner starts (DockerFleet.prepare); `isKnown` answers from the database. Another
   * platform on the same engine (another PLATFORM_LABEL) is never touched.
   */
  async sweepOrphans(
    knownNow: () => Promise<(deploymentId: string) => boolean>,
  ): Promise<{ containers: number; networks: number; volumes: number }> {
    const managed = { label: Object.entries(this.#labels).map(([k, v]) => `${k}=${v}`) };
    // Listed before the database is asked, so a deployment made meanwhile (by another runner) is known.
    const [containers, networks, volumes] = await Promise.all([
      this.docker.listContainers({ all: true, filters: managed }),
      this.docker.listNetworks({ filters: managed }),
      this.docker.listVolumes({ filters: managed }).then((v) => v.Volumes ?? []),
    ]);
    const isKnown = await knownNow();
    const orphan = (labels: Record<string, string> | null | undefined) => !isKnown(labels?.[DEPLOYMENT_LABEL] ?? '');
    const lost = {
      containers: containers.filter((c) => orphan(c.Labels)),
      networks: networks.filter((n) => orphan(n.Labels)),
      volumes: volumes.filter((v) => orphan(v.Labels)),
    };
    await Promise.all(lost.containers.map((c) => this.remove(c.Id)));
    const quietly = (remove: Promise<unknown>) => remove.catch(() => undefined);
    await Promise.all(lost.networks.map((n) => quietly(this.docker.getNetwork(n.Id).remove())));
    await Promise.all(lost.volumes.map((v) => quietly(this.docker.getVolume(v.Name).remove())));
    return { containers: lost.containers.length, networks: lost.networks.length, volumes: lost.volumes.length };
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

/** `text` with the host of `url` (with and without its port) named `name` instead. */
function withoutHost(text: string, url: string, name: string): string {
  const { host, hostname } = new URL(url);
  return text.replaceAll(host, name).replaceAll(hostname, name);
}

/**
 * Polls the health path until it answers 2xx. The health gate: no job is sent to an instance
 * before it passes. Throws an EngineError('health') with the last reason.
 */
export async function waitReady(baseUrl: string, options: ReadyOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 5;
  let reason = 'no answer';
  // What the container last answered: said rather than a later attempt's timeout, which on a busy
  // host is often the last attempt's (its time is what is left of the deadline).
  let answered: string | undefined;
  let attempts = 0;
  while (Date.now() < deadline) {
    attempts += 1;
    try {
      // Not followed: a redirect would have the platform call another address from the host.
      const res = await fetch(new URL(options.healthPath, baseUrl), {
        redirect: 'manual',
        signal: AbortSignal.timeout(Math.max(200, Math.min(2000, deadline - Date.now()))),
      });
      await res.body?.cancel();
      if (res.ok) return;
      reason = answered = `GET ${options.healthPath} answered ${res.status}`;
    } catch (error) {
      const said = (error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message;
      // "connect ECONNREFUSED 10.89.0.2:8080": the container's address is the runner's, not for
      // the owner's report nor the callers it reaches (docs/security.md, "Container hosting").
      reason = `GET ${options.healthPath}: ${withoutHost(said, baseUrl, 'the container')}`;
    }
    // Checking the engine on every attempt would slow the fast path; every 20th is enough.
    if (options.isAlive && attempts % 20 === 0 && !(await options.isAlive()))
      throw new EngineError('health', 'The container exited before it answered');
    await new Promise((r) => setTimeout(r, interval));
  }
  throw new EngineError('health', `The health check failed for ${Math.round(options.timeoutMs / 1000)} s: ${answered ?? reason}`);
}
