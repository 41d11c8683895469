// @limelight/rules: the platform's rules in one place (docs/architecture.md, "Where the rules
// live"). Constants and pure functions only: no React, no DOM, no dependencies, so every build
// inlines them (the widgets' rollup build, @limelight/client's build, the server bundle) and the
// Python package reads the constants from its generated limelight/_rules.py
// (scripts/python-rules.mjs).
export { JOB_STATUSES, FINAL_JOB_STATUSES, MAX_PREFER_WAIT_S, isFinalStatus } from './jobs.ts';
export type { JobStatus } from './jobs.ts';
export {
  EUR_PER_CREDIT,
  EUR_PER_USD,
  CREDITS_PER_USD,
  roundUpCredits,
  creditsForRun,
  PUBLISHER_SHARE,
  publisherEarning,
} from './metering.ts';
export { GPU_PRICES, PRICING_PROVIDER_IDS, DEFAULT_GPU, CPU_PRICE, gpuPricePerSecond } from './gpus.ts';
export type { GpuPrice } from './gpus.ts';
export { CONTAINER_RUNTIME_DEFAULTS, DEFAULT_RESOURCES, RESOURCE_BOUNDS } from './hosting.ts';
export type { ServiceResources } from './hosting.ts';
export { PRIVATE_SERVICE_LIMITS, API_KEY_DEFAULT_LIFETIME_DAYS } from './plans.ts';
export {
  SECRET_NAME_PATTERN,
  MAX_SECRET_NAME_LENGTH,
  MAX_SECRET_VALUE_BYTES,
  MAX_SECRETS,
  RESERVED_SECRET_NAMES,
  RESERVED_SECRET_PREFIX,
  secretNameProblem,
} from './secrets.ts';
