import type { FieldError } from '@limelight/widgets/api';

// The one error a domain module throws when a request cannot be served as asked: a code that
// says what went wrong, a message for the caller (`detail`) and, for bad input, one entry per
// field. Domain code never names an HTTP status: the API's error handler maps each code to one
// (api/errors.ts, the only table) and answers `{ detail, errors? }` (docs/architecture.md,
// "Errors"). Anything else thrown is a bug and answers 500 without its message.

export type DomainErrorCode =
  /** The request cannot be read (bad JSON, a malformed webhook). */
  | 'bad_request'
  /** No caller, or credentials that do not prove one. */
  | 'unauthenticated'
  /** The caller's plan or credits do not cover it. */
  | 'payment_required'
  /** The caller is known but may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The thing exists but its state refuses the request (paused, already subscribed). */
  | 'conflict'
  | 'too_large'
  | 'unsupported_type'
  /** Input that parses but breaks a rule: `fields` names each bad field. */
  | 'invalid'
  | 'rate_limited'
  /** A third party the request depends on failed (payment provider). */
  | 'upstream_failed'
  /** This server cannot do it now (no runtime serves a service). */
  | 'unavailable';

export class DomainError extends Error {
  override name = 'DomainError';
  /** For a `rate_limited` refusal: when to try again (the API sends it as Retry-After). */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: DomainErrorCode,
    readonly detail: string,
    /** One entry per bad field, so a form can mark each field. */
    readonly fields?: FieldError[],
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(detail, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export const badRequest = (detail: string) => new DomainError('bad_request', detail);
export const unauthorized = (detail: string) => new DomainError('unauthenticated', detail);
export const paymentRequired = (detail: string) => new DomainError('payment_required', detail);
export const forbidden = (detail: string) => new DomainError('forbidden', detail);
export const notFound = (detail: string) => new DomainError('not_found', detail);
export const conflict = (detail: string) => new DomainError('conflict', detail);
export const tooLarge = (detail: string) => new DomainError('too_large', detail);
export const unsupportedType = (detail: string) => new DomainError('unsupported_type', detail);
export const invalid = (detail: string) => new DomainError('invalid', detail);
export const rateLimited = (detail: string) => new DomainError('rate_limited', detail);
export const unavailable = (detail: string) => new DomainError('unavailable', detail);

/** Bad input naming every bad field: `detail` joins them for clients that show one message. */
export const invalidFields = (fields: FieldError[]) =>
  new DomainError('invalid', fields.map((e) => `${e.name}: ${e.message}`).join('; '), fields);
