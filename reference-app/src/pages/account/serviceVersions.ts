import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';

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

async function call<T>(options: ClientOptions, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> {
  const url = `${options.baseURL.replace(/\/+$/, '')}${path}`;
  const token = (await options.getAccessToken?.()) ?? (await options.session?.getAccessToken()) ?? null;
  if (!token) return { ok: false, status: 401, statusText: 'Unauthorized', url, error: 'Tokens not available. Login first.' };
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return { ok: false, status: 0, statusText: '', url, error: 'Offline' };
  }
  const answer = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, status: response.status, data: answer as T };
  const detail = (answer as { detail?: unknown } | null)?.detail;
  return {
    ok: false,
    status: response.status,
    statusText: response.statusText,
    url,
    error: typeof detail === 'string' ? detail : response.statusText,
  };
}

const servicePath = (serviceId: string) => `/v1/model_management/services/${encodeURIComponent(serviceId)}`;

/** A client for `useApiClient(createServiceVersionsClient)`. */
export function createServiceVersionsClient(options: ClientOptions): ServiceVersionsClient {
  return {
    list: (serviceId, cursor) =>
      call<ServiceVersionPage>(
        options,
        'GET',
        `${servicePath(serviceId)}/versions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      ),
    rollback: (serviceId, digest) => call<ServiceVersion>(options, 'POST', `${servicePath(serviceId)}/rollback`, { digest }),
  };
}
