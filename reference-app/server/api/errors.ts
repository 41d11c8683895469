// Errors of the platform API: FastAPI's shape, `{ "detail": "..." }`, which the clients in
// src/api read into `error`. Messages name the bad input.

export type ApiErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502;

export class ApiHttpError extends Error {
  override name = 'ApiHttpError';
  constructor(
    readonly status: ApiErrorStatus,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options);
  }
}

export const unauthorized = (detail: string) => new ApiHttpError(401, detail);
export const notFound = (detail: string) => new ApiHttpError(404, detail);
export const conflict = (detail: string) => new ApiHttpError(409, detail);
export const invalid = (detail: string) => new ApiHttpError(422, detail);
export const forbidden = (detail: string) => new ApiHttpError(403, detail);
