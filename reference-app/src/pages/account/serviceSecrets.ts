import { secretNameProblem as nameProblem } from '@limelight/rules';
import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';
import { callPlatform } from './callPlatform';

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

/** The platform's rules for a name (@limelight/rules), checked before sending, as a sentence. */
export function secretNameProblem(name: string): string | null {
  const problem = nameProblem(name);
  return problem && `${problem[0]!.toUpperCase()}${problem.slice(1)}.`;
}

/** A client for `useApiClient(createServiceSecretsClient)`. */
export function createServiceSecretsClient(options: ClientOptions): ServiceSecretsClient {
  const base = (id: string) => `/v1/model_management/services/${encodeURIComponent(id)}/secrets`;
  return {
    list: (id) => callPlatform(options, 'GET', base(id)),
    set: (id, name, value) => callPlatform(options, 'PUT', `${base(id)}/${encodeURIComponent(name)}`, { value }),
    remove: (id, name) => callPlatform(options, 'DELETE', `${base(id)}/${encodeURIComponent(name)}`),
  };
}
