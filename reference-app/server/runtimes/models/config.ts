import { ConfigError } from '../../config';

// Settings of the local model runtime (docs/architecture.md, "Local models"), read from the
// environment the way runtimes/config.ts reads the other runtime settings.

type Env = Record<string, string | undefined>;

export interface ModelsConfig {
  /** LOCAL_MODELS=off runs every seeded service on the demo runtime, as before issue 38. */
  enabled: boolean;
  /** LOCAL_MODEL_CONCURRENCY: runs of one model at once in this process (default 1); more wait their turn. */
  concurrency: number;
  /** LOCAL_MODEL_MEMORY_MB: the address-space ceiling of each model process (default 512). */
  memoryMb: number;
  /** TESSERACT_PATH: the OCR engine's binary, a name looked up on PATH or a path (default tesseract). */
  tesseract: string;
  /** ESPEAK_NG_PATH: the speech synthesiser's binary (default espeak-ng). */
  espeak: string;
}

export const DEFAULT_MODEL_MEMORY_MB = 512;

function whole(env: Env, name: string, fallback: number, min: number, unit: string): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new ConfigError(`${name} must be a whole number of ${unit} ≥ ${min}, got "${raw}"`);
  return value;
}

export function loadModelsConfig(env: Env): ModelsConfig {
  const switched = env.LOCAL_MODELS?.trim() || 'on';
  if (switched !== 'on' && switched !== 'off') throw new ConfigError(`LOCAL_MODELS must be "on" or "off", got "${switched}"`);
  return {
    enabled: switched === 'on',
    concurrency: whole(env, 'LOCAL_MODEL_CONCURRENCY', 1, 1, 'runs'),
    memoryMb: whole(env, 'LOCAL_MODEL_MEMORY_MB', DEFAULT_MODEL_MEMORY_MB, 64, 'megabytes'),
    tesseract: env.TESSERACT_PATH?.trim() || 'tesseract',
    espeak: env.ESPEAK_NG_PATH?.trim() || 'espeak-ng',
  };
}
