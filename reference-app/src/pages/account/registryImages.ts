import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';

// The caller's images in the platform's registry (docs/publishing.md, "Your images"):
// GET /v1/registry/images and DELETE /v1/registry/images/{name}/{digest}. The widget library has
// no client for them (the registry is this site's own feature), so this one calls them with the
// platform's token source and answers ApiResult like every client of @limelight/widgets/api.

export interface RegistryImage {
  digest: string;
  tags: string[];
  size_bytes: number;
  pushed_at: string;
  used_by: { id: string; name: string }[];
}

export interface RegistryImages {
  host: string;
  namespace: string;
  plan: string;
  used_bytes: number;
  quota_bytes: number;
  garbage_collection: { pending: boolean };
  repositories: { name: string; images: RegistryImage[] }[];
}

export interface RegistryImagesClient {
  list(): Promise<ApiResult<RegistryImages>>;
  /** Deletes the image `digest` of repository `name` (with its tags). */
  remove(name: string, digest: string): Promise<ApiResult<{ deleted_digests: string[] }>>;
}

async function call<T>(options: ClientOptions, method: 'GET' | 'DELETE', path: string): Promise<ApiResult<T>> {
  const url = `${options.baseURL.replace(/\/+$/, '')}${path}`;
  const token = (await options.getAccessToken?.()) ?? (await options.session?.getAccessToken()) ?? null;
  if (!token) return { ok: false, status: 401, statusText: 'Unauthorized', url, error: 'Tokens not available. Login first.' };
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { method, headers: { Authorization: `Bearer ${token}` } });
  } catch {
    return { ok: false, status: 0, statusText: '', url, error: 'Offline' };
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (response.ok) return { ok: true, status: response.status, data: body as T };
  const detail = (body as { detail?: unknown } | null)?.detail;
  return {
    ok: false,
    status: response.status,
    statusText: response.statusText,
    url,
    error: typeof detail === 'string' ? detail : response.statusText,
  };
}

/** A client for `useApiClient(createRegistryImagesClient)`. */
export function createRegistryImagesClient(options: ClientOptions): RegistryImagesClient {
  return {
    list: () => call<RegistryImages>(options, 'GET', '/v1/registry/images'),
    remove: (name, digest) =>
      call<{ deleted_digests: string[] }>(
        options,
        'DELETE',
        `/v1/registry/images/${encodeURIComponent(name)}/${encodeURIComponent(digest)}`,
      ),
  };
}
