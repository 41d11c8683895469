// Errors of the auth API, shaped like GoTrue's so that supabase-js raises the same error
// classes it raises against Supabase: the code goes in `code` (read when the response carries
// X-Supabase-Api-Version >= 2024-01-01) and in `error_code` (read otherwise), the message in
// `msg` and `message`. Client mistakes are 4xx, never 5xx: supabase-js retries 5xx.

export { API_VERSION, API_VERSION_HEADER } from '../http/authApiVersion';

export class AuthHttpError extends Error {
  override name = 'AuthHttpError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 500,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  body(): Record<string, unknown> {
    return { code: this.code, error_code: this.code, msg: this.message, message: this.message, ...this.extra };
  }
}

export const badRequest = (code: string, message: string, extra?: Record<string, unknown>) => new AuthHttpError(400, code, message, extra);
export const unprocessable = (code: string, message: string, extra?: Record<string, unknown>) =>
  new AuthHttpError(422, code, message, extra);
export const forbidden = (code: string, message: string) => new AuthHttpError(403, code, message);
export const notFound = (code: string, message: string) => new AuthHttpError(404, code, message);

/** OAuth-style error (`error` / `error_description`), as GoTrue answers on /token. */
export const oauthError = (status: 400 | 401 | 403, error: string, description: string, code: string) =>
  new AuthHttpError(status, code, description, { error, error_description: description });

export const validationFailed = (message: string) => badRequest('validation_failed', message);

export const invalidCredentials = () => oauthError(400, 'invalid_grant', 'Invalid login credentials', 'invalid_credentials');

export const tooManyRequests = (code: 'over_request_rate_limit' | 'over_email_send_rate_limit', message: string) =>
  new AuthHttpError(429, code, message);
