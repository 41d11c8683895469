import type { ModelDescriptor, ServiceEndpoint } from '../api/types';

/** Runnable endpoints: the job API runs POST endpoints (docs/jobs.md). */
export const runnableEndpoints = (endpoints: readonly ServiceEndpoint[]) =>
  endpoints.filter((e) => e.method === 'POST' && Array.isArray(e.parameters));

/**
 * False when the service is known to offer nothing to run (its endpoints are listed and none is
 * runnable); true while they are unknown (the bundled catalogue has no endpoints).
 */
export const canRunService = (service: Pick<ModelDescriptor, 'endpoints'>) =>
  !Array.isArray(service.endpoints) || runnableEndpoints(service.endpoints).length > 0;
