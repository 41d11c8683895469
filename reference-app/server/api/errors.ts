// Errors of the platform API: FastAPI's shape, `{ "detail": "..." }`, which the clients in
// src/api read into `error`. Messages name the bad input.

import type { FieldError } from '@limelight/widgets/api';

export type ApiErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502;

export class ApiHttpError extends Error {
  override name = 'ApiHttpError';
  constructor(
    readonly status: ApiErrorStatus,
    readonly detail: string,
    options?: { cause?: unknown; errors?: FieldError[] },
  ) {
    super(detail, options);
    this.errors = options?.errors;
  }
  /** One entry per bad field (422), so a form can mark each field. */
  readonly errors?: FieldError[];
}

export const unauthorized = (detail: string) => new ApiHttpError(401, detail);
export const notFound = (detail: string) => new ApiHttpError(404, detail);
export const conflict = (detail: string) => new ApiHttpError(409, detail);
export const invalid = (detail: string) => new ApiHttpError(422, detail);
export const forbidden = (detail: string) => new ApiHttpError(403, detail);
export const paymentRequired = (detail: string) => new ApiHttpError(402, detail);

/** 422 naming every bad field: `detail` joins them for clients that show one message. */
export const invalidFields = (errors: FieldError[]) =>
  new ApiHttpError(422, errors.map((e) => `${e.name}: ${e.message}`).join('; '), { errors });
