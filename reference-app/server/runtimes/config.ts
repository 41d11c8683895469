import { ConfigError } from '../config';

// Runtime settings from the environment (documented in the server README).

export interface RuntimesConfig {
  /** Pause after each progress step of a local demo run (LOCAL_DEMO_STEP_MS; 0 for fast tests). */
  localDemoStepMs: number;
  /**
   * Whether publishers' service URLs may point at private and loopback addresses: always outside
   * production, in production only with ALLOW_PRIVATE_SERVICE_URLS=true (docs/security.md).
   */
  allowPrivateServiceUrls: boolean;
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
  return {
    localDemoStepMs: stepDelayFromEnv(env),
    allowPrivateServiceUrls: !production || env.ALLOW_PRIVATE_SERVICE_URLS?.trim() === 'true',
  };
}
