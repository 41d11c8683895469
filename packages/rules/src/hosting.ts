// The container contract's defaults and what a service may declare (docs/publishing.md, "The
// container contract" and "Resources"). The publishing editor shows them, the server fills them
// in and checks them, and the CLI checks limelight.yaml against them (limelight/_rules.py).

/**
 * A container runtime's fields the owner may leave out: FastAPI's port and document, one job per
 * instance at a time.
 */
export const CONTAINER_RUNTIME_DEFAULTS = { port: 8080, health_path: '/openapi.json', concurrency: 1 } as const;

/**
 * What one instance of a container service may use: the owner declares it with the runtime
 * (`resources`), not the GPU offer, which only prices the service.
 */
export interface ServiceResources {
  /** CPUs (a ceiling, not a reservation: an idle instance uses none). */
  cpu: number;
  /** Memory in MB: the container's limit, and what each instance reserves of the runner's capacity. */
  memoryMb: number;
  /** GPUs the instance needs; more than 0 runs only on a runner with CONTAINER_GPU set. */
  gpu: number;
}

/**
 * The defaults fit a CPU service, so several instances, the paused pool and a rolling update fit
 * on an ordinary host.
 */
export const DEFAULT_RESOURCES: Readonly<ServiceResources> = { cpu: 1, memoryMb: 1024, gpu: 0 };

/** What a service may declare, per instance (the runtime schema's ranges). */
export const RESOURCE_BOUNDS = {
  cpu: { min: 0.1, max: 32 },
  memoryMb: { min: 64, max: 262_144 },
  gpu: { min: 0, max: 8 },
} as const;
