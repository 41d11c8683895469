import { createApiClient, type ClientOptions } from './http';
import type { ApiResult } from './result';
import type { HealthCheck, ManagedService, OpenApiImport, ServiceInput } from './types';

// Publishing (docs/publishing.md): the caller's own services. Every call needs a session token;
// API keys cannot manage services.

export const SERVICES_PREFIX = '/v1/model_management/';

const path = (id: string, action = '') => `services/${encodeURIComponent(id)}${action}`;

/** The publishing API client (`/v1/services/`) for the signed-in publisher's services. */
export function createServicesClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: SERVICES_PREFIX, defaultAuth: 'required' });
  return {
    client,
    list: (): Promise<ApiResult<ManagedService[]>> => client.get<ManagedService[]>('services'),
    get: (id: string) => client.get<ManagedService>(path(id)),
    create: (input: ServiceInput) => client.post<ManagedService>('services', input),
    update: (id: string, changes: Partial<ServiceInput>) => client.patch<ManagedService>(path(id), changes),
    remove: (id: string) => client.delete<{ id: string }>(path(id)),
    /**
     * Reads an OpenAPI 3 document (from `url`, a pasted `document`, or the service's own
     * `/openapi.json`); saves nothing. With `id` null it reads for a service not yet created.
     */
    importOpenApi: (id: string | null, source: { url?: string; document?: unknown } = {}) =>
      client.post<OpenApiImport>(id === null ? 'import_openapi' : path(id, '/import_openapi'), source),
    healthCheck: (id: string) => client.post<HealthCheck>(path(id, '/health_check')),
    /** Uploads the service's picture; the server crops and scales it to the card size. */
    uploadImage: (id: string, file: Blob) => {
      const form = new FormData();
      form.append('file', file, (file as File).name || 'image');
      return client.post<ManagedService>(path(id, '/image'), form);
    },
  };
}

/** The publishing API client: the caller's own services (create, edit, publish, health checks). */
export type ServicesClient = ReturnType<typeof createServicesClient>;
