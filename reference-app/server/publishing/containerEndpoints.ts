import type { Db } from '../db/types';
import type { UrlPolicy } from '../runtimes/http/urlPolicy';
import { fetchOpenApiDocument } from './importSource';
import { importOpenApi } from './openapiImport';
import { fillEmptyEndpoints, selectServiceEndpoints } from './queries';

// The endpoints of a container service saved without any, imported from its image once the runner
// sees its first healthy instance (docs/publishing.md, "Container deployments"). Publishing's, as
// every write to the models table is (publishing/queries.ts); hosting calls it through the
// `importEndpoints` that platform.ts hands createContainerHosting.

/**
 * A container service saved without endpoints gets those of its image's /openapi.json. Redirects
 * are followed hop by hop: on the instance's own origin as they come, anywhere else only where the
 * URL policy allows (never the platform itself or its engine; in production no private address).
 */
export async function importEndpoints(db: Db, serviceId: string, baseUrl: string, policy: UrlPolicy): Promise<void> {
  const row = await selectServiceEndpoints(db, serviceId);
  if (!row || (Array.isArray(row.endpoints) && row.endpoints.length > 0)) return;
  const own = new URL(baseUrl);
  const { endpoints } = await importOpenApi(await fetchOpenApiDocument(new URL('/openapi.json', own), policy, own.origin));
  if (endpoints.length === 0) return;
  // Only while still empty: an owner who saved endpoints meanwhile keeps theirs.
  await fillEmptyEndpoints(db, serviceId, endpoints);
}
