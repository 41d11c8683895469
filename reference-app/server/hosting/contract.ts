import { CONTAINER_RUNTIME_DEFAULTS } from '@limelight/widgets/api';

// The container contract's defaults (docs/publishing.md, "The container contract"): FastAPI's
// port and document, and one job per instance at a time. One source with the editor
// (src/api/serviceRules.ts); apart from the runner so the publishing schema can name them
// without loading the engine client.

export const DEFAULT_PORT: number = CONTAINER_RUNTIME_DEFAULTS.port;
export const DEFAULT_HEALTH_PATH: string = CONTAINER_RUNTIME_DEFAULTS.health_path;
/** Jobs one instance serves at once unless the deployment says otherwise. */
export const DEFAULT_CONCURRENCY: number = CONTAINER_RUNTIME_DEFAULTS.concurrency;

/**
 * What one instance of a container service may use (docs/publishing.md, "Resources"): the owner
 * declares it with the runtime (`resources`), not the GPU offer, which only prices the service.
 * The defaults fit a CPU service, so several instances, the paused pool and a rolling update fit
 * on an ordinary host.
 */
export interface ServiceResources {
  /** CPUs (a ceiling, not a reservation: an idle instance uses none). */
  cpu: number;
  /** Memory in MB: the container's limit, and what each instance reserves of the runner's capacity. */
  memoryMb: number;
  /** GPUs the instance needs; more than 0 runs only on a runner with CONTAINER_GPU set. */
  gpu: number;
}

export const DEFAULT_RESOURCES: Readonly<ServiceResources> = { cpu: 1, memoryMb: 1024, gpu: 0 };

/** What a service may declare, per instance (the runtime schema's ranges). */
export const RESOURCE_BOUNDS = {
  cpu: { min: 0.1, max: 32 },
  memoryMb: { min: 64, max: 262_144 },
  gpu: { min: 0, max: 8 },
} as const;

/** A stored runtime row's resources, the defaults where it declared none (rows saved before migration 018). */
export const resourcesOfRow = (row: { cpu: number | null; memory_mb: number | null; gpu_count: number | null }): ServiceResources => ({
  cpu: row.cpu ?? DEFAULT_RESOURCES.cpu,
  memoryMb: row.memory_mb ?? DEFAULT_RESOURCES.memoryMb,
  gpu: row.gpu_count ?? DEFAULT_RESOURCES.gpu,
});
