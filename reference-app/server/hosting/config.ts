import { existsSync, readFileSync } from 'node:fs';
import { bool, ConfigError, int, list, oneOf, optionalInt, text, type Env } from '../config/env';
import { loadPlatformRegistryConfig, type PlatformRegistryConfig } from '../registry/config';
import { stepDelayFromEnv } from '../runtimes/config';
import { loadModelsConfig, type ModelsConfig } from '../runtimes/models/config';
import { allowedRegistries, DEFAULT_CONTAINER_REGISTRIES } from '../registry/allowedRegistries';

// How services run, from the environment (documented in the server README): the runtimes' own
// settings (runtimes/config.ts) and hosting's: the container runner, the platform's registry and
// the registries images may come from. Hosting owns containers end to end (docs/architecture.md,
// "Hosting"), their settings included.

export interface RuntimesConfig {
  /** Pause after each progress step of a local demo run (LOCAL_DEMO_STEP_MS; 0 for fast tests). */
  localDemoStepMs: number;
  /**
   * Whether publishers' service URLs may point at private and loopback addresses: always outside
   * production, in production only with ALLOW_PRIVATE_SERVICE_URLS=true (docs/security.md).
   */
  allowPrivateServiceUrls: boolean;
  /** The container runner (docs/publishing.md, "Running containers"); null: deployments wait for one. */
  containers?: ContainerRunnerConfig | null;
  /** The platform's own registry (PLATFORM_REGISTRY, on with the runner); null: none. */
  registry?: PlatformRegistryConfig | null;
  /**
   * The registries container images may come from: CONTAINER_REGISTRIES (default docker.io,
   * ghcr.io, quay.io) and the platform's own (registry/allowedRegistries.ts). Unset: any.
   */
  imageRegistries?: string[];
  /** The real models of seeded services (LOCAL_MODELS, runtimes/models/config.ts); default: on, found on PATH. */
  models?: ModelsConfig;
}

export interface ContainerRunnerConfig {
  /** CONTAINER_RUNNER=docker: the Docker Engine API (Docker, or Podman's compatible service). */
  runner: 'docker';
  /** DOCKER_HOST, default unix:///var/run/docker.sock. */
  dockerHost: string;
  /** CONTAINER_WARM_POOL: paused (default), created or none (docs/publishing.md, "Cold starts"). */
  warm: 'paused' | 'created' | 'none';
  /** CONTAINER_MEMORY_MB: a host-level cap on the memory each service declares (small hosts, tests). */
  memoryCapMb: number | undefined;
  /** CONTAINER_GPU: none (default), docker (DeviceRequests) or cdi (Podman's CDI, nvidia.com/gpu=<index>). */
  gpu: 'none' | 'docker' | 'cdi';
  /**
   * CONTAINER_GPUS: the host's GPUs by their CDI device names (`0,1` for nvidia.com/gpu=0 and =1);
   * each instance of a GPU service gets its own (hosting/gpuAllocator.ts). Required with cdi.
   */
  gpuDevices: string[];
  /** CONTAINER_REACH: internal (default: the container's address on its own network) or published (127.0.0.1 port). */
  reach: 'internal' | 'published';
  /** CONTAINER_SANDBOX: none (default: runc's namespaces) or gvisor (runsc; docs/security.md, "Sandbox tiers"). */
  sandbox: 'none' | 'gvisor';
  /** CONTAINER_PULL_TIMEOUT_S (default 600) in ms: a pull still running then fails the deploy. */
  pullTimeoutMs: number;
  /**
   * CONTAINER_USERNS: auto (Podman maps the container's root to an unprivileged uid; the default
   * where the host has the subordinate id range) or host.
   */
  userns: 'host' | 'auto';
  /** Said once when the runner starts: the container's root would be the host's, and how to fix it. */
  usernsWarning?: string;
  /** CONTAINER_CAPACITY_MB: the memory publishers' containers may reserve; default 75 % of the engine's. */
  capacityMb: number | undefined;
  /**
   * CONTAINER_SNAPSHOTS=on (gVisor only): a start from zero restores a memory snapshot taken after
   * setup, kept in CONTAINER_SNAPSHOT_DIR (default /var/lib/limelight/snapshots); docs/deploy.md,
   * "Snapshot cold starts". Null: off.
   */
  snapshots?: { dir: string } | null;
}

export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';

/** The files Podman's --userns=auto takes host ids from (the `containers` user's range). */
export const SUBORDINATE_ID_FILES = ['/etc/subuid', '/etc/subgid'] as const;
/** The range `.ci/run` and docs/security.md set up: 2^31 ids from 2^31 - 1, clear of every real user. */
export const SUBORDINATE_ID_ENTRY = 'containers:2147483647:2147483648';

/** True when /etc/subuid and /etc/subgid both give the `containers` user a range. */
export function hasSubordinateIds(files: readonly string[] = SUBORDINATE_ID_FILES): boolean {
  return files.every((file) => existsSync(file) && /^containers:\d+:\d+\s*$/m.test(readFileSync(file, 'utf8')));
}

/** What the runner's defaults read of its host (tests give their own). */
export interface RunnerHost {
  subordinateIds: () => boolean;
}

/** CONTAINER_RUNNER and its settings; null when no runner is turned on. */
export function loadContainerRunnerConfig(
  env: Env,
  host: RunnerHost = { subordinateIds: () => hasSubordinateIds() },
): ContainerRunnerConfig | null {
  if (!text(env, 'CONTAINER_RUNNER')) return null;
  oneOf(env, 'CONTAINER_RUNNER', ['docker'], 'docker');
  const dockerHost = text(env, 'DOCKER_HOST') ?? DEFAULT_DOCKER_HOST;
  if (!/^(unix:\/\/\/|tcp:\/\/|https?:\/\/)/.test(dockerHost))
    throw ConfigError.invalid('DOCKER_HOST', dockerHost, 'unix:///path or tcp://host:port');
  return {
    ...sandboxSettings(env, host),
    runner: 'docker',
    dockerHost,
    warm: oneOf(env, 'CONTAINER_WARM_POOL', ['paused', 'created', 'none'], 'paused'),
    memoryCapMb: optionalInt(env, 'CONTAINER_MEMORY_MB', { min: 16, unit: 'megabytes' }),
    ...gpuSettings(env),
    reach: oneOf(env, 'CONTAINER_REACH', ['internal', 'published'], 'internal'),
    snapshots: snapshotSettings(env),
  };
}

/** CONTAINER_SNAPSHOTS and its folder: only under gVisor, whose runsc takes the snapshots. */
function snapshotSettings(env: Env): { dir: string } | null {
  if (oneOf(env, 'CONTAINER_SNAPSHOTS', ['on', 'off'], 'off') === 'off') return null;
  const sandbox = oneOf(env, 'CONTAINER_SANDBOX', ['none', 'gvisor'], 'none');
  if (sandbox !== 'gvisor')
    throw ConfigError.invalid('CONTAINER_SNAPSHOTS', 'on', 'on only with CONTAINER_SANDBOX=gvisor (runsc takes the memory snapshots)');
  const dir = text(env, 'CONTAINER_SNAPSHOT_DIR') ?? '/var/lib/limelight/snapshots';
  if (!dir.startsWith('/')) throw ConfigError.invalid('CONTAINER_SNAPSHOT_DIR', dir, 'an absolute path');
  return { dir };
}

/** A CDI device name as the NVIDIA Container Toolkit writes them: an index, or a UUID, or `0:1` for a MIG slice. */
const CDI_DEVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/**
 * CONTAINER_GPU and CONTAINER_GPUS (docs/publishing.md, "Resources"). The runner is told its
 * GPUs rather than reading the CDI specification: Podman reads the specification from its own
 * folders (/etc/cdi, /var/run/cdi), which the runner may not see, and a GPU kept out of the list
 * (one the host needs for itself) is never given to a publisher.
 */
function gpuSettings(env: Env): { gpu: 'none' | 'docker' | 'cdi'; gpuDevices: string[] } {
  const gpu = oneOf(env, 'CONTAINER_GPU', ['none', 'docker', 'cdi'], 'none');
  const gpuDevices = list(env, 'CONTAINER_GPUS');
  const bad = gpuDevices.find((name) => !CDI_DEVICE_NAME.test(name));
  if (bad !== undefined) throw ConfigError.invalid('CONTAINER_GPUS', bad, 'comma-separated GPU device names such as 0,1');
  if (new Set(gpuDevices).size !== gpuDevices.length) {
    throw ConfigError.invalid('CONTAINER_GPUS', env.CONTAINER_GPUS ?? '', 'each GPU named once, such as 0,1');
  }
  if (gpu === 'cdi' && gpuDevices.length === 0) {
    throw ConfigError.required(
      'CONTAINER_GPUS',
      "with CONTAINER_GPU=cdi: the host's GPUs as its CDI specification names them (CONTAINER_GPUS=0,1 for nvidia.com/gpu=0 and =1), so each instance gets its own, never all of them",
    );
  }
  return { gpu, gpuDevices: gpu === 'none' ? [] : gpuDevices };
}

/** The settings issue 35 added: the sandbox tier, the pull deadline, user namespaces, capacity. */
function sandboxSettings(env: Env, host: RunnerHost) {
  return {
    sandbox: oneOf(env, 'CONTAINER_SANDBOX', ['none', 'gvisor'], 'none'),
    pullTimeoutMs: int(env, 'CONTAINER_PULL_TIMEOUT_S', 600, { min: 1, unit: 'seconds' }) * 1000,
    ...usernsSettings(env, host),
    capacityMb: optionalInt(env, 'CONTAINER_CAPACITY_MB', { min: 64, unit: 'megabytes' }),
  };
}

const SUBORDINATE_FIX = `add "${SUBORDINATE_ID_ENTRY}" to ${SUBORDINATE_ID_FILES.join(' and ')} (docs/security.md, "User namespaces")`;

/**
 * User namespaces are on by default wherever the host has the subordinate id range (issue 47):
 * the container's root is then an unprivileged host uid. Without the range the runner still
 * starts, with the container's root the host's, and says so once with the fix; an explicit
 * CONTAINER_USERNS=host is the operator's choice and says nothing.
 */
function usernsSettings(env: Env, host: RunnerHost): { userns: 'host' | 'auto'; usernsWarning?: string } {
  const explicit = text(env, 'CONTAINER_USERNS') !== undefined;
  const userns = oneOf(env, 'CONTAINER_USERNS', ['host', 'auto'], 'auto');
  if (userns === 'host') return { userns };
  if (host.subordinateIds()) return { userns };
  if (explicit) {
    return {
      userns,
      usernsWarning: `CONTAINER_USERNS=auto, but this host has no subordinate id range for user "containers": every container create will fail until you ${SUBORDINATE_FIX}`,
    };
  }
  return {
    userns: 'host',
    usernsWarning:
      `User namespaces are off: this host has no subordinate id range, so a container's root is the host's root. ` +
      `To fix it, ${SUBORDINATE_FIX} and restart; CONTAINER_USERNS=host keeps them off without this warning.`,
  };
}

const REGISTRY_HOST = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/** CONTAINER_REGISTRIES: comma-separated registry hosts (host or host:port). */
function imageRegistriesOf(env: Env, platformRegistryHost: string | undefined): string[] {
  const configured =
    text(env, 'CONTAINER_REGISTRIES') === undefined ? [...DEFAULT_CONTAINER_REGISTRIES] : list(env, 'CONTAINER_REGISTRIES');
  const bad = configured.find((host) => !REGISTRY_HOST.test(host));
  if (bad !== undefined)
    throw ConfigError.invalid('CONTAINER_REGISTRIES', bad, 'comma-separated registry hosts such as ghcr.io or registry.example.com:5000');
  return allowedRegistries(configured, platformRegistryHost);
}

export function loadRuntimesConfig(env: Env, production: boolean): RuntimesConfig {
  const containers = loadContainerRunnerConfig(env);
  const registry = loadPlatformRegistryConfig(env, containers !== null);
  return {
    localDemoStepMs: stepDelayFromEnv(env),
    allowPrivateServiceUrls: !production || bool(env, 'ALLOW_PRIVATE_SERVICE_URLS', false),
    containers,
    registry,
    imageRegistries: imageRegistriesOf(env, registry?.host),
    models: loadModelsConfig(env),
  };
}
