import { bool, ConfigError, int, list, oneOf, optionalInt, text, type Env } from '../config/env';
import { loadPlatformRegistryConfig, type PlatformRegistryConfig } from '../registry/config';
import { allowedRegistries, DEFAULT_CONTAINER_REGISTRIES } from '../hosting/allowedRegistries';
import { loadModelsConfig, type ModelsConfig } from './models/config';

// Runtime settings from the environment (documented in the server README).

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
   * ghcr.io, quay.io) and the platform's own (hosting/allowedRegistries.ts). Unset: any.
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
  /** CONTAINER_MEMORY_MB: caps the memory row of the limits table (small hosts, tests). */
  memoryCapMb: number | undefined;
  /** CONTAINER_GPU: none (default), docker (DeviceRequests) or cdi (Podman's nvidia.com/gpu=all). */
  gpu: 'none' | 'docker' | 'cdi';
  /** CONTAINER_REACH: internal (default: the container's address on its own network) or published (127.0.0.1 port). */
  reach: 'internal' | 'published';
  /** CONTAINER_SANDBOX: none (default: runc's namespaces) or gvisor (runsc; docs/security.md, "Sandbox tiers"). */
  sandbox: 'none' | 'gvisor';
  /** CONTAINER_PULL_TIMEOUT_S (default 600) in ms: a pull still running then fails the deploy. */
  pullTimeoutMs: number;
  /** CONTAINER_USERNS: host (default) or auto (Podman maps the container's root to an unprivileged uid). */
  userns: 'host' | 'auto';
  /** CONTAINER_CAPACITY_MB: the memory publishers' containers may reserve; default 75 % of the engine's. */
  capacityMb: number | undefined;
}

export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';

/** CONTAINER_RUNNER and its settings; null when no runner is turned on. */
export function loadContainerRunnerConfig(env: Env): ContainerRunnerConfig | null {
  if (!text(env, 'CONTAINER_RUNNER')) return null;
  oneOf(env, 'CONTAINER_RUNNER', ['docker'], 'docker');
  const dockerHost = text(env, 'DOCKER_HOST') ?? DEFAULT_DOCKER_HOST;
  if (!/^(unix:\/\/\/|tcp:\/\/|https?:\/\/)/.test(dockerHost))
    throw ConfigError.invalid('DOCKER_HOST', dockerHost, 'unix:///path or tcp://host:port');
  return {
    ...sandboxSettings(env),
    runner: 'docker',
    dockerHost,
    warm: oneOf(env, 'CONTAINER_WARM_POOL', ['paused', 'created', 'none'], 'paused'),
    memoryCapMb: optionalInt(env, 'CONTAINER_MEMORY_MB', { min: 16, unit: 'megabytes' }),
    gpu: oneOf(env, 'CONTAINER_GPU', ['none', 'docker', 'cdi'], 'none'),
    reach: oneOf(env, 'CONTAINER_REACH', ['internal', 'published'], 'internal'),
  };
}

/** The settings issue 35 added: the sandbox tier, the pull deadline, user namespaces, capacity. */
function sandboxSettings(env: Env) {
  return {
    sandbox: oneOf(env, 'CONTAINER_SANDBOX', ['none', 'gvisor'], 'none'),
    pullTimeoutMs: int(env, 'CONTAINER_PULL_TIMEOUT_S', 600, { min: 1, unit: 'seconds' }) * 1000,
    userns: oneOf(env, 'CONTAINER_USERNS', ['host', 'auto'], 'host'),
    capacityMb: optionalInt(env, 'CONTAINER_CAPACITY_MB', { min: 64, unit: 'megabytes' }),
  };
}

/** Step pause in production: about ten steps per run, so a run takes 1–2 s like a small model. */
export const DEFAULT_STEP_DELAY_MS = 150;

/** LOCAL_DEMO_STEP_MS: whole milliseconds ≥ 0, else the default. */
export function stepDelayFromEnv(env: Env): number {
  return int(env, 'LOCAL_DEMO_STEP_MS', DEFAULT_STEP_DELAY_MS, { unit: 'milliseconds' });
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
