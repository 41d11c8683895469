import type { z } from '@hono/zod-openapi';
import type { Selectable } from 'kysely';
import type { Db, ModelsTable } from '../db/types';
import { serviceCover } from '../media/covers';
import type { RuntimeRegistry } from '../hosting/runtimeRegistry';
import { selectPrivateServicesOf, selectPublicServices } from './queries';
import type { ModelDescriptorSchema } from './schemas';

// Model descriptors: public to everyone plus the caller's own private services. Repeated reads
// are answered by http/catalogueCache.ts, which every catalogue write invalidates; a cache here
// would outlive that invalidation (docs/deploy.md, "Caching").

type ModelDescriptor = z.output<typeof ModelDescriptorSchema>;

/** Stored image paths are site-relative; embeds on other sites need absolute URLs. */
export const absoluteUrl = (publicUrl: string, value: string | null) =>
  value && value.startsWith('/') && !value.startsWith('//') ? `${publicUrl}${value}` : value;

/**
 * A container service's deployment in three words for everyone (the owner's
 * model_hosting_information has the detail): `ready` (running, or scaled to zero and started by
 * the next run), `starting` (deploying) or `unavailable` (failed, stopped, or no runner). Other
 * runtimes are always up and carry none. Migration 011 announces a change of it to the
 * catalogue cache, and only then: instances and cold starts change far more often.
 */
export function deploymentState(status: string | null | undefined): ModelDescriptor['deployment'] {
  if (status === 'running' || status === 'scaled_to_zero') return 'ready';
  if (status === 'deploying') return 'starting';
  return 'unavailable';
}

type DescriptorRow = Selectable<ModelsTable> & { runtime_type?: string | null; base_url?: string | null; hosting_status?: string | null };

/** What tells a service's hardware: the runtime registry's answer (hosting/runtimeRegistry.ts). */
export type RunsOnOf = RuntimeRegistry['runsOn'];

/**
 * What runs the service, from the runtime that serves it, never from a list of services: its
 * `hardware`, and `demo: true` with `demo_reason` on the local demo runtime (the catalogue's
 * Demo badge; docs/jobs.md: metering).
 */
function runsOnFields(row: DescriptorRow, runsOn: RunsOnOf | undefined): Partial<ModelDescriptor> {
  if (!runsOn) return {};
  const on = runsOn({ id: row.id, runtime_type: row.runtime_type ?? null, base_url: row.base_url ?? null });
  return on.hardware === 'demo' ? { hardware: on.hardware, demo: true, demo_reason: on.demoReason } : { hardware: on.hardware };
}

export function toDescriptor(row: DescriptorRow, publicUrl: string, runsOn?: RunsOnOf): ModelDescriptor {
  return {
    id: row.id,
    display_name: row.display_name,
    model_desc: row.model_desc,
    // Its own picture when the platform serves it, else its designed cover (media/covers.ts).
    display_img_url: absoluteUrl(publicUrl, serviceCover(row)),
    used_models: row.used_models,
    model_category: row.model_category as ModelDescriptor['model_category'],
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    n_usages: row.n_usages,
    sort_idx_featured: row.sort_idx_featured,
    provider: row.provider,
    owner_name: row.owner_name,
    is_public: row.is_public,
    endpoints: row.endpoints as ModelDescriptor['endpoints'],
    ...(row.runtime_type === 'container' ? { deployment: deploymentState(row.hosting_status) } : {}),
    ...runsOnFields(row, runsOn),
  };
}

/** The descriptor list as JSON text. */
export function descriptorList(db: Db, publicUrl: string, runsOn?: RunsOnOf) {
  async function publicJson(): Promise<string> {
    const rows = await selectPublicServices(db);
    return JSON.stringify(rows.map((r) => toDescriptor(r, publicUrl, runsOn)));
  }

  /** The caller's private services first, then the public list (spliced as text). */
  return async function descriptorsJson(userId: string | undefined): Promise<string> {
    const [own, models] = await Promise.all([userId ? selectPrivateServicesOf(db, userId) : [], publicJson()]);
    if (!own.length) return models;
    const ownJson = JSON.stringify(own.map((r) => toDescriptor(r, publicUrl, runsOn))).slice(1, -1);
    return models === '[]' ? `[${ownJson}]` : `[${ownJson},${models.slice(1)}`;
  };
}
