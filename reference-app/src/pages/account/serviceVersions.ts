import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';
import { callPlatform } from './callPlatform';

// A container service's versions and its rollback (docs/publishing.md, "Versions and rollback"):
// GET /v1/model_management/services/{id}/versions and POST …/rollback. Like registryImages.ts,
// a client of this site's own feature, calling with the platform's token source and answering
// ApiResult as every client of @limelight/widgets/api does.

export type VersionOutcome = 'pending' | 'in_progress' | 'succeeded' | 'failed' | 'superseded';

export interface ServiceVersion {
  id: string;
  image: string;
  /** sha256:… when the image is named by digest (what `limelight push` saves); null for a tag. */
  digest: string | null;
  kind: 'deploy' | 'rollback';
  deployed_at: string;
  deployed_by: { id: string; email: string | null } | null;
  outcome: VersionOutcome;
  outcome_message: string | null;
  /** The version serving now. */
  current: boolean;
}

export interface ServiceVersionPage {
  versions: ServiceVersion[];
  next_cursor: string | null;
}

export interface ServiceVersionsClient {
  /** A page of the service's versions, newest first (`cursor`: the previous page's next_cursor). */
  list(serviceId: string, cursor?: string): Promise<ApiResult<ServiceVersionPage>>;
  /** Redeploys the version with `digest`; answers the version recorded for the rollback. */
  rollback(serviceId: string, digest: string): Promise<ApiResult<ServiceVersion>>;
}

const servicePath = (serviceId: string) => `/v1/model_management/services/${encodeURIComponent(serviceId)}`;

/** A client for `useApiClient(createServiceVersionsClient)`. */
export function createServiceVersionsClient(options: ClientOptions): ServiceVersionsClient {
  return {
    list: (serviceId, cursor) =>
      callPlatform<ServiceVersionPage>(
        options,
        'GET',
        `${servicePath(serviceId)}/versions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    rollback: (serviceId, digest) => callPlatform<ServiceVersion>(options, 'POST', `${servicePath(serviceId)}/rollback`, { digest }),
  };
}
