import type { ApiFailure } from './result';

/** Thrown by `unwrap()` when a call failed; keeps the normalised failure. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly url: string;
  constructor(
    readonly failure: ApiFailure,
    options?: { cause?: unknown },
  ) {
    super(`${failure.error} (status ${failure.status}${failure.url ? `, ${failure.url}` : ''})`, options);
    this.status = failure.status;
    this.url = failure.url;
  }
}
