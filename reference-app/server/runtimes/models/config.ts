import { int, oneOf, text, type Env } from '../../config/env';

// Settings of the local model runtime (the server README, "Local models"), read from the
// environment the way hosting/config.ts reads the other runtime settings.

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
  /** POCKETSPHINX_PATH: the speech recogniser's binary (default pocketsphinx_continuous). */
  pocketsphinx: string;
  /** POCKETSPHINX_MODEL_DIR: its US English acoustic model, language model and dictionary (Debian's pocketsphinx-en-us). */
  pocketsphinxModel: string;
  /** OPENCV_CASCADES_DIR: OpenCV's trained Haar cascades (Debian's opencv-data). */
  cascades: string;
  /** Where program names are looked up: the server's PATH, else Debian's usual directories. */
  searchPath: string;
}

export const DEFAULT_MODEL_MEMORY_MB = 512;
export const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';
export const DEFAULT_POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
export const DEFAULT_CASCADES = '/usr/share/opencv4/haarcascades';

export function loadModelsConfig(env: Env): ModelsConfig {
  return {
    enabled: oneOf(env, 'LOCAL_MODELS', ['on', 'off'], 'on') === 'on',
    concurrency: int(env, 'LOCAL_MODEL_CONCURRENCY', 1, { min: 1, unit: 'runs' }),
    memoryMb: int(env, 'LOCAL_MODEL_MEMORY_MB', DEFAULT_MODEL_MEMORY_MB, { min: 64, unit: 'megabytes' }),
    tesseract: text(env, 'TESSERACT_PATH') ?? 'tesseract',
    espeak: text(env, 'ESPEAK_NG_PATH') ?? 'espeak-ng',
    pocketsphinx: text(env, 'POCKETSPHINX_PATH') ?? 'pocketsphinx_continuous',
    pocketsphinxModel: text(env, 'POCKETSPHINX_MODEL_DIR') ?? DEFAULT_POCKETSPHINX_MODEL,
    cascades: text(env, 'OPENCV_CASCADES_DIR') ?? DEFAULT_CASCADES,
    searchPath: text(env, 'PATH') ?? DEFAULT_SEARCH_PATH,
  };
}
