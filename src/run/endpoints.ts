import type { ModelDescriptor, ServiceEndpoint } from '../api/types';

/** Runnable endpoints: the job API runs POST endpoints (docs/jobs.md). */
export const runnableEndpoints = (endpoints: readonly ServiceEndpoint[]) =>
  endpoints.filter((e) => e.method === 'POST' && Array.isArray(e.parameters));

/** Why a service cannot be run now, or null when it can (docs/publishing.md, "Lifecycle"). */
export type RunBlocker = 'no-endpoints' | 'starting' | 'unavailable';

/**
 * `no-endpoints` when the service is known to offer nothing to run (its endpoints are listed and
 * none is runnable); `starting` or `unavailable` when it is a container service whose deployment
 * is deploying, or failed, stopped or without a runner (the descriptor's coarse `deployment`);
 * null otherwise, also while the endpoints are unknown (the bundled catalogue has none).
 */
export function runBlocker(service: Pick<ModelDescriptor, 'endpoints' | 'deployment'>): RunBlocker | null {
  if (Array.isArray(service.endpoints) && runnableEndpoints(service.endpoints).length === 0) return 'no-endpoints';
  if (service.deployment === 'starting' || service.deployment === 'unavailable') return service.deployment;
  return null;
}

/** Whether the service can be run now: nothing in `runBlocker` stands in the way. */
export const canRunService = (service: Pick<ModelDescriptor, 'endpoints' | 'deployment'>) => runBlocker(service) === null;
