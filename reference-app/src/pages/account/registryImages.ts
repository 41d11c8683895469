import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';
import { callPlatform } from './callPlatform';

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

/** A client for `useApiClient(createRegistryImagesClient)`. */
export function createRegistryImagesClient(options: ClientOptions): RegistryImagesClient {
  return {
    list: () => callPlatform<RegistryImages>(options, 'GET', '/v1/registry/images'),
    remove: (name, digest) =>
      callPlatform<{ deleted_digests: string[] }>(
        options,
        'DELETE',
        `/v1/registry/images/${encodeURIComponent(name)}/${encodeURIComponent(digest)}`,
      ),
  };
}
