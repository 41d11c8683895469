import type { ServiceEndpoint } from '@limelight/widgets/api';
import type { Runtime } from '../runtimes/runtime';

// Which runtime computes a service's jobs. The platform passes a registry in (the local demo
// runtimes by default; tests pass their own); a service no runtime serves cannot be run.

export interface RunnableService {
  id: string;
  provider: string;
  model_category: unknown;
  endpoints: ServiceEndpoint[];
  /** How the owner runs it (services/): absent for the seeded services, which run locally. */
  runtime_type?: string | null;
  base_url?: string | null;
  headers_sealed?: string | null;
}

export type RuntimeRegistry = (service: RunnableService) => Runtime | undefined;

/** Serves nothing: every run is refused with 503 until a registry is configured. */
export const noRuntimes: RuntimeRegistry = () => undefined;
