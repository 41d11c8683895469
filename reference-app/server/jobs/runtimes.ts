import type { ServiceEndpoint } from '@limelight/widgets/api';
import type { Runtime } from '../runtimes/runtime';

// Which runtime computes a service's jobs. The platform passes a registry in (the local demo
// runtimes by default; tests pass their own); a service no runtime serves cannot be run.

export interface RunnableService {
  id: string;
  provider: string;
  model_category: unknown;
  endpoints: ServiceEndpoint[];
  /** How the owner runs it (publishing): absent for the seeded services, which run locally. */
  runtime_type?: string | null;
  base_url?: string | null;
  headers_sealed?: string | null;
}

/** A service as the job feature needs it: runnable, with who may run it and who earns from it. */
export type LoadedService = RunnableService & { is_public: boolean; created_by: string | null; status: string | null };

/** Loads a service to run (the publishing feature owns the rows; jobs only receive this function). */
export type LoadRunnable = (serviceId: string) => Promise<LoadedService | undefined>;

export type RuntimeRegistry = (service: RunnableService) => Runtime | undefined;

/** Serves nothing: every run is refused with 503 until a registry is configured. */
export const noRuntimes: RuntimeRegistry = () => undefined;

/**
 * Runtimes whose jobs wait on the network (a publisher's HTTP service, a container runner):
 * they run in their own slot pool, so slow remote services never hold the local runtimes' slots.
 */
export const IO_RUNTIMES: readonly string[] = ['http', 'container'];
