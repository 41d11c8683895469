import { createFetch, FetchError, ofetch, type $Fetch } from 'ofetch';
import {
  detailOf,
  failure,
  fieldErrorsOf,
  INTERNAL_ERROR,
  OFFLINE_ERROR,
  TOKENS_MISSING_ERROR,
  type ApiFailure,
  type ApiResult,
} from './result';
import { ApiError } from './errors';
import { createTokenSource, type TokenSourceOptions } from './token';

/** none: never send a token; optional: send it if present; required: fail without one. */
export type AuthMode = 'none' | 'optional' | 'required';

export interface RequestOptions {
  auth?: AuthMode;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Prefer`, `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** What every client of the platform API is made from: the host and where its bearer comes from. */
export interface ClientOptions extends TokenSourceOptions {
  /** API host, e.g. `http://localhost:3000`. */
  baseURL: string;
  /** fetch implementation, for non-browser hosts. */
  fetch?: typeof globalThis.fetch;
}

export interface ApiClientOptions extends ClientOptions {
  /** Path prefix of the group, e.g. `/v1/model_management/`. */
  prefix: string;
  /** Auth mode of calls that do not name one (product-rules §6: required unless declared open). */
  defaultAuth?: AuthMode;
}

export interface ApiClient {
  request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: RequestOptions): Promise<ApiResult<T>>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<ApiResult<T>>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<ApiResult<T>>;
  patch<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<ApiResult<T>>;
  delete<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<ApiResult<T>>;
}

function joinUrl(baseURL: string, prefix: string, path: string): string {
  return `${baseURL.replace(/\/+$/, '')}/${prefix.replace(/^\/+|\/+$/g, '')}/${path.replace(/^\/+/, '')}`;
}

/** Maps whatever a call threw to the normalised failure of product-rules §7. */
export function toFailure(error: unknown, url: string): ApiFailure {
  if (error instanceof FetchError) {
    const response = error.response;
    if (!response) {
      // No response: fetch itself rejected. A TypeError is fetch's network failure (refused,
      // DNS, CORS); anything else is a bug or a broken fetch, not a connectivity problem.
      return error.cause instanceof TypeError || error.cause === undefined
        ? failure(0, '', url, OFFLINE_ERROR)
        : failure(500, INTERNAL_ERROR, url, INTERNAL_ERROR);
    }
    const result = failure(
      response.status,
      response.statusText,
      response.url || url,
      detailOf(error.data) ?? response.statusText ?? INTERNAL_ERROR,
    );
    const fieldErrors = fieldErrorsOf(error.data);
    return fieldErrors ? { ...result, fieldErrors } : result;
  }
  // fetch rejects with a TypeError when nothing answers (connection refused, DNS, CORS).
  if (error instanceof TypeError) return failure(0, '', url, OFFLINE_ERROR);
  return failure(500, INTERNAL_ERROR, url, INTERNAL_ERROR);
}

/**
 * One ofetch instance per API group. Calls never throw: they resolve to `ApiResult`, so every
 * caller handles failure the same way. Requests with a body are never retried (not idempotent).
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.fetch
    ? createFetch({ fetch: options.fetch, Headers: globalThis.Headers, AbortController: globalThis.AbortController })
    : ofetch;
  const $fetch: $Fetch = base.create({ baseURL: options.baseURL, retry: 0 });
  const defaultAuth = options.defaultAuth ?? 'required';
  const getToken = createTokenSource(options);

  /** The bearer header a call sends, or the failure of a call that needs a token and has none. */
  async function authorize(mode: AuthMode = defaultAuth, url: string): Promise<ApiResult<Record<string, string>>> {
    const token = mode === 'none' ? null : await getToken();
    if (mode === 'required' && !token) return failure(401, 'Unauthorized', url, TOKENS_MISSING_ERROR);
    return { ok: true, status: 0, data: token ? { Authorization: `Bearer ${token}` } : {} };
  }

  async function request<T>(method: string, path: string, req: RequestOptions = {}): Promise<ApiResult<T>> {
    const url = joinUrl(options.baseURL, options.prefix, path);
    const authorization = await authorize(req.auth, url);
    if (!authorization.ok) return authorization;
    const query = req.query ? Object.fromEntries(Object.entries(req.query).filter(([, v]) => v !== undefined)) : undefined;
    try {
      const response = await $fetch.raw<T>(url, {
        method,
        query,
        body: req.body as BodyInit | Record<string, unknown> | undefined,
        headers: { ...req.headers, ...authorization.data },
        signal: req.signal,
        // GET without a body may be retried once on a network blip; anything with a body never.
        retry: req.body === undefined && method === 'GET' ? 1 : 0,
      });
      return { ok: true, status: response.status, data: response._data as T };
    } catch (error) {
      return toFailure(error, url);
    }
  }

  return {
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    patch: (path, body, opts) => request('PATCH', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
  };
}

/** Returns the data of a successful result or throws an `ApiError`. */
export function unwrap<T>(result: ApiResult<T>): T {
  if (result.ok) return result.data;
  throw new ApiError(result);
}
