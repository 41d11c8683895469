import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';

// A container service's secrets (docs/publishing.md, "Secrets"):
// GET /v1/model_management/services/{id}/secrets, PUT and DELETE …/secrets/{name}. The answers
// carry names and times only; a value goes to the platform and never comes back. The widget
// library has no client for them (the site's own feature), so this one calls them with the
// platform's token source and answers ApiResult like every client of @limelight/widgets/api.

export interface ServiceSecret {
  name: string;
  created_at: string;
  updated_at: string;
}

export interface ServiceSecretsClient {
  list(serviceId: string): Promise<ApiResult<{ secrets: ServiceSecret[] }>>;
  /** Sets (or replaces) one secret; the answer has no value. */
  set(serviceId: string, name: string, value: string): Promise<ApiResult<ServiceSecret>>;
  remove(serviceId: string, name: string): Promise<ApiResult<{ name: string }>>;
}

/** The platform's rules for a name (reference-app/server/secrets/serviceSecrets.ts), checked before sending. */
export function secretNameProblem(name: string): string | null {
  if (name === '') return 'Give the variable’s name, like OPENAI_API_KEY.';
  if (name.length > 64) return 'At most 64 characters.';
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) return 'Capital letters, digits and _, not starting with a digit (like OPENAI_API_KEY).';
  if (['PORT', 'PATH', 'HOME', 'HOSTNAME'].includes(name) || name.startsWith('LIMELIGHT_')) {
    return `${name} is set by the platform (PORT, PATH, HOME, HOSTNAME and LIMELIGHT_* are reserved).`;
  }
  return null;
}

async function call<T>(options: ClientOptions, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ApiResult<T>> {
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

/** A client for `useApiClient(createServiceSecretsClient)`. */
export function createServiceSecretsClient(options: ClientOptions): ServiceSecretsClient {
  const base = (id: string) => `/v1/model_management/services/${encodeURIComponent(id)}/secrets`;
  return {
    list: (id) => call(options, 'GET', base(id)),
    set: (id, name, value) => call(options, 'PUT', `${base(id)}/${encodeURIComponent(name)}`, { value }),
    remove: (id, name) => call(options, 'DELETE', `${base(id)}/${encodeURIComponent(name)}`),
  };
}
