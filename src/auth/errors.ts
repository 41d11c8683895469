import { isAuthError, isAuthImplicitGrantRedirectError, isAuthRetryableFetchError, isAuthSessionMissingError } from '@supabase/auth-js';

/** What went wrong, as far as the UI cares. */
export type AuthFailureKind =
  /** The auth server answered with an error (it carries a `code`). */
  | 'api'
  /** The server was not reached or answered 5xx (auth-js retries these). */
  | 'network'
  /** No session where one was needed (auth-js `AuthSessionMissingError`). */
  | 'session-missing'
  /** Anything else: a bug, a malformed answer. */
  | 'unexpected';

export interface LimeAuthErrorOptions {
  kind?: AuthFailureKind;
  /** The auth server's error code (`invalid_credentials`, `user_already_exists`, ...). */
  code?: string | null;
  /** HTTP status, 0 when the server was not reached. */
  status?: number | null;
  cause?: unknown;
}

/**
 * The auth layer's one error class. Messages are meant for developers; the UI maps `code` and
 * `kind` (never the message) to the product-rules §8 texts.
 */
export class LimeAuthError extends Error {
  override name = 'LimeAuthError';
  readonly kind: AuthFailureKind;
  readonly code: string | null;
  readonly status: number | null;

  constructor(message: string, options: LimeAuthErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options.kind ?? 'unexpected';
    this.code = options.code ?? null;
    this.status = options.status ?? null;
  }
}

/** Normalises whatever auth-js returned or threw into a `LimeAuthError`, keeping it as `cause`. */
export function toLimeAuthError(error: unknown): LimeAuthError {
  if (error instanceof LimeAuthError) return error;
  if (isAuthSessionMissingError(error)) {
    return new LimeAuthError(error.message, { kind: 'session-missing', code: 'session_not_found', status: error.status, cause: error });
  }
  if (isAuthRetryableFetchError(error)) {
    return new LimeAuthError(error.message, { kind: 'network', code: null, status: error.status, cause: error });
  }
  if (isAuthImplicitGrantRedirectError(error)) {
    return new LimeAuthError(error.message, {
      kind: 'api',
      code: error.details?.code ?? error.code ?? null,
      status: error.status,
      cause: error,
    });
  }
  if (isAuthError(error)) {
    // AuthUnknownError (unreadable answer) has neither code nor a real status.
    const kind: AuthFailureKind = error.name === 'AuthUnknownError' ? 'unexpected' : 'api';
    return new LimeAuthError(error.message, { kind, code: error.code ?? null, status: error.status ?? null, cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new LimeAuthError(message || 'Unknown auth failure', { kind: 'unexpected', cause: error });
}

/** Server message ready for the spec's `{message}` slot: trimmed, without a final full stop
 * (the templates add their own: 'Could not create account: {message}. Please ...'). */
export function messageForTemplate(error: { message: string }): string {
  return error.message.trim().replace(/[.!]+$/, '');
}
