import { ConfigError } from '../config';
import { loadPlatformRegistryConfig, type PlatformRegistryConfig } from '../registry/config';
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

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!values.includes(raw as T)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** CONTAINER_RUNNER and its settings; null when no runner is turned on. */
export function loadContainerRunnerConfig(env: Env): ContainerRunnerConfig | null {
  const runner = env.CONTAINER_RUNNER?.trim();
  if (!runner) return null;
  if (runner !== 'docker') throw new ConfigError(`CONTAINER_RUNNER must be "docker" (Docker or Podman), got "${runner}"`);
  const dockerHost = env.DOCKER_HOST?.trim() || DEFAULT_DOCKER_HOST;
  if (!/^(unix:\/\/\/|tcp:\/\/|https?:\/\/)/.test(dockerHost))
    throw new ConfigError(`DOCKER_HOST must be unix:///path or tcp://host:port, got "${dockerHost}"`);
  const memory = env.CONTAINER_MEMORY_MB?.trim();
  const memoryCapMb = memory ? Number(memory) : undefined;
  if (memoryCapMb !== undefined && (!Number.isInteger(memoryCapMb) || memoryCapMb < 16)) {
    throw new ConfigError(`CONTAINER_MEMORY_MB must be a whole number of megabytes ≥ 16, got "${memory}"`);
  }
  return {
    ...sandboxSettings(env),
    runner: 'docker',
    dockerHost,
    warm: oneOf(env, 'CONTAINER_WARM_POOL', ['paused', 'created', 'none'], 'paused'),
    memoryCapMb,
    gpu: oneOf(env, 'CONTAINER_GPU', ['none', 'docker', 'cdi'], 'none'),
    reach: oneOf(env, 'CONTAINER_REACH', ['internal', 'published'], 'internal'),
  };
}

function wholeNumber(env: Env, name: string, min: number, unit: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be a whole number of ${unit} ≥ ${min}, got "${raw}"`);
  return value;
}

/** The settings issue 35 added: the sandbox tier, the pull deadline, user namespaces, capacity. */
function sandboxSettings(env: Env) {
  return {
    sandbox: oneOf(env, 'CONTAINER_SANDBOX', ['none', 'gvisor'], 'none'),
    pullTimeoutMs: (wholeNumber(env, 'CONTAINER_PULL_TIMEOUT_S', 1, 'seconds') ?? 600) * 1000,
    userns: oneOf(env, 'CONTAINER_USERNS', ['host', 'auto'], 'host'),
    capacityMb: wholeNumber(env, 'CONTAINER_CAPACITY_MB', 64, 'megabytes'),
  };
}

/** Step pause in production: about ten steps per run, so a run takes 1–2 s like a small model. */
export const DEFAULT_STEP_DELAY_MS = 150;

type Env = Record<string, string | undefined>;

/** LOCAL_DEMO_STEP_MS: milliseconds ≥ 0, else the default. */
export function stepDelayFromEnv(env: Env): number {
  const raw = env.LOCAL_DEMO_STEP_MS;
  if (raw === undefined || raw === '') return DEFAULT_STEP_DELAY_MS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(`LOCAL_DEMO_STEP_MS must be a number of milliseconds ≥ 0, got "${raw}"`);
  return value;
}

export function loadRuntimesConfig(env: Env, production: boolean): RuntimesConfig {
  const containers = loadContainerRunnerConfig(env);
  return {
    localDemoStepMs: stepDelayFromEnv(env),
    allowPrivateServiceUrls: !production || env.ALLOW_PRIVATE_SERVICE_URLS?.trim() === 'true',
    containers,
    registry: loadPlatformRegistryConfig(env, containers !== null),
    models: loadModelsConfig(env),
  };
}
