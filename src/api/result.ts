/** Success of product-rules §7: status and data. */
export interface ApiSuccess<T> {
  ok: true;
  status: number;
  data: T;
}

import type { FieldError } from './types';

/** Failure of product-rules §7: status, statusText, url and the body's `detail` as error. */
export interface ApiFailure {
  ok: false;
  status: number;
  statusText: string;
  url: string;
  error: string;
  /** One entry per bad field when the body lists them (422 of `POST /v1/jobs`). */
  fieldErrors?: FieldError[];
}

/** What every client call resolves to, never a throw: `{ ok: true, data }` or an `ApiFailure` with status and message. */
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

/** A normalised failure. */
export function failure(status: number, statusText: string, url: string, error: string): ApiFailure {
  return { ok: false, status, statusText, url, error };
}

export const OFFLINE_ERROR = 'Offline';
export const INTERNAL_ERROR = 'Internal Server Error';
/** The message of the 401 a call that needs a token gets when no token source gives one (no network request is made). */
export const TOKENS_MISSING_ERROR = 'Tokens not available. Login first.';

/** Reads the message from a FastAPI-style body: `detail` as a string, or a list of `{msg}`. */
export function detailOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const messages = detail.map((d) => (d && typeof d === 'object' && 'msg' in d ? String(d.msg) : String(d)));
    return messages.join('; ') || undefined;
  }
  return undefined;
}

/** The body's `errors` list of `{ name, rule, message }`, when it has one. */
export function fieldErrorsOf(body: unknown): FieldError[] | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  const valid = errors.filter(
    (e): e is FieldError =>
      !!e && typeof e === 'object' && typeof e.name === 'string' && typeof e.rule === 'string' && typeof e.message === 'string',
  );
  return valid.length ? valid.map(({ name, rule, message }) => ({ name, rule, message })) : undefined;
}
