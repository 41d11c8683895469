import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { DomainError, type DomainErrorCode } from '../errors';

// Domain errors as the platform API answers them: FastAPI's shape, `{ "detail": "..." }`, which
// the clients in src/api read into `error`, with `errors` (one entry per bad field) when the
// error names fields. This table is the only place a domain error code becomes a status.

export const STATUS_OF_CODE = {
  bad_request: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  invalid: 422,
  rate_limited: 429,
  upstream_failed: 502,
  unavailable: 503,
} as const satisfies Record<DomainErrorCode, ContentfulStatusCode>;

/** The status and body a domain error answers with. */
export function domainErrorAnswer(error: DomainError) {
  const body = error.fields ? { detail: error.detail, errors: error.fields } : { detail: error.detail };
  return { status: STATUS_OF_CODE[error.code], body };
}

/** Answers a domain error, or undefined for any other error (the caller's 500 path). */
export function answerDomainError(c: Context, error: unknown): Response | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const { status, body } = domainErrorAnswer(error);
  if (error.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.retryAfterSeconds));
  return c.json(body, status);
}
