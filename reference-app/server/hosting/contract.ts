import { CONTAINER_RUNTIME_DEFAULTS, DEFAULT_RESOURCES, RESOURCE_BOUNDS, type ServiceResources } from '@limelight/rules';

// The container contract's defaults (docs/publishing.md, "The container contract"): FastAPI's
// port and document, and one job per instance at a time. One source with the editor
// (@limelight/rules); apart from the runner so the publishing schema can name them
// without loading the engine client.

export const DEFAULT_PORT: number = CONTAINER_RUNTIME_DEFAULTS.port;
export const DEFAULT_HEALTH_PATH: string = CONTAINER_RUNTIME_DEFAULTS.health_path;
/** Jobs one instance serves at once unless the deployment says otherwise. */
export const DEFAULT_CONCURRENCY: number = CONTAINER_RUNTIME_DEFAULTS.concurrency;

// What one instance of a container service may use (docs/publishing.md, "Resources"), its
// defaults and its bounds: the platform's rules (@limelight/rules), which the CLI checks too.
export { DEFAULT_RESOURCES, RESOURCE_BOUNDS, type ServiceResources };

/** A stored runtime row's resources, the defaults where it declared none (rows saved before migration 018). */
export const resourcesOfRow = (row: { cpu: number | null; memory_mb: number | null; gpu_count: number | null }): ServiceResources => ({
  cpu: row.cpu ?? DEFAULT_RESOURCES.cpu,
  memoryMb: row.memory_mb ?? DEFAULT_RESOURCES.memoryMb,
  gpu: row.gpu_count ?? DEFAULT_RESOURCES.gpu,
});
