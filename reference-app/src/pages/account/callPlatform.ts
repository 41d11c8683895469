import type { ApiResult } from '@limelight/widgets';
import type { ClientOptions } from '@limelight/widgets/api';

// One call of a platform route the widget library has no client for (the site's own account
// features: registry images, a service's secrets and versions), with the platform's token
// source, answered as ApiResult like every client of @limelight/widgets/api: the server's
// `detail` as the error, 0 for no answer at all.

export async function callPlatform<T>(
  options: ClientOptions,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<ApiResult<T>> {
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
