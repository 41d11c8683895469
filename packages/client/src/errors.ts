import type { FieldError, Job } from './types.ts';

// Typed errors. Whatever goes wrong after a job was created carries its `jobId`, so a paid
// result is never lost: fetch it later with client.get(jobId).

export class LimelightError extends Error {
  override name = 'LimelightError';
  /** The job this error happened to, when one had been created. */
  jobId?: string;
  constructor(message: string, options?: { cause?: unknown; jobId?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.jobId = options?.jobId;
  }
}

const CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_type',
  422: 'invalid_input',
  429: 'rate_limited',
};

/** The server answered with an error status: `{ detail, errors? }`. */
export class ApiError extends LimelightError {
  override name = 'ApiError';
  /** A stable name of the failure (`invalid_input`, `insufficient_credits`, …). */
  readonly code: string;
  /** One entry per bad field (422). */
  readonly fields: FieldError[];
  constructor(
    readonly status: number,
    readonly detail: string,
    fields: FieldError[] = [],
    options?: { jobId?: string },
  ) {
    super(`${status}: ${detail}`, options);
    this.code = CODES[status] ?? (status >= 500 ? 'server_error' : 'http_error');
    this.fields = fields;
  }
}

/** fetch itself failed (no answer) after every retry. */
export class ConnectionError extends LimelightError {
  override name = 'ConnectionError';
}

/** The job ended FAILED, TIMEOUT or CANCELLED. */
export class JobFailedError extends LimelightError {
  override name = 'JobFailedError';
  constructor(readonly job: Job) {
    super(`job ${job.job_id} ended ${job.status}: ${job.error?.message ?? 'no message'}`, { jobId: job.job_id });
  }
}

/**
 * Waiting stopped (the signal aborted or `timeout` passed) while the job goes on: `jobId` says
 * which job to fetch later. Its `name` is AbortError when a signal aborted it, so code that
 * checks for aborts keeps working.
 */
export class JobWaitError extends LimelightError {
  constructor(
    message: string,
    override readonly jobId: string,
    readonly reason: 'aborted' | 'timeout',
    cause?: unknown,
  ) {
    super(message, { jobId, cause });
    this.name = reason === 'aborted' ? 'AbortError' : 'TimeoutError';
  }
}

/** A webhook whose signature, headers or timestamp did not check out: do not trust its body. */
export class WebhookVerificationError extends LimelightError {
  override name = 'WebhookVerificationError';
}
