import { int, type Env } from '../config/env';

// The runtimes' own settings from the environment (documented in the server README); the
// container runner's, and the whole RuntimesConfig, are hosting's (hosting/config.ts).

/** Step pause in production: about ten steps per run, so a run takes 1–2 s like a small model. */
export const DEFAULT_STEP_DELAY_MS = 150;

/** LOCAL_DEMO_STEP_MS: whole milliseconds ≥ 0, else the default. */
export function stepDelayFromEnv(env: Env): number {
  return int(env, 'LOCAL_DEMO_STEP_MS', DEFAULT_STEP_DELAY_MS, { unit: 'milliseconds' });
}
