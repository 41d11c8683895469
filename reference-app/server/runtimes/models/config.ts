import { int, oneOf, text, type Env } from '../../config/env';

// Settings of the local model runtime (the server README, "Local models"), read from the
// environment the way runtimes/config.ts reads the other runtime settings.

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
  /** Where program names are looked up: the server's PATH, else Debian's usual directories. */
  searchPath: string;
}

export const DEFAULT_MODEL_MEMORY_MB = 512;
export const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';

export function loadModelsConfig(env: Env): ModelsConfig {
  return {
    enabled: oneOf(env, 'LOCAL_MODELS', ['on', 'off'], 'on') === 'on',
    concurrency: int(env, 'LOCAL_MODEL_CONCURRENCY', 1, { min: 1, unit: 'runs' }),
    memoryMb: int(env, 'LOCAL_MODEL_MEMORY_MB', DEFAULT_MODEL_MEMORY_MB, { min: 64, unit: 'megabytes' }),
    tesseract: text(env, 'TESSERACT_PATH') ?? 'tesseract',
    espeak: text(env, 'ESPEAK_NG_PATH') ?? 'espeak-ng',
    searchPath: text(env, 'PATH') ?? DEFAULT_SEARCH_PATH,
  };
}
