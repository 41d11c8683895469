import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as streamingBodyLimit } from 'hono/body-limit';

// Request body limits decided from the Content-Length header whenever the request has one (every
// client that sends a whole body does), never touching the body. Hono's bodyLimit asks for
// `c.req.raw.body` first, which makes @hono/node-server build a full web Request with a
// ReadableStream and an AbortSignal: a third of the server's CPU for a small POST /v1/jobs
// (docs/jobs.md, "What makes the path fast"). A chunked body (no length) still goes through
// Hono's limit, which counts the stream as it reads.

export interface BodyLimitOptions {
  maxSize: number;
  onError: (c: Context) => Response | Promise<Response>;
}

/** The body as the request declares it: its length, or chunked, or none. */
export function declaredBody(c: Context): { length: number } | 'chunked' | 'none' {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return 'none';
  if (c.req.header('transfer-encoding')) return 'chunked';
  const length = c.req.header('content-length');
  if (length === undefined) return 'none';
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? { length: bytes } : 'chunked';
}

export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const streaming = streamingBodyLimit(options);
  return async (c, next) => {
    const body = declaredBody(c);
    if (body === 'none') return next();
    if (body === 'chunked') return streaming(c, next);
    return body.length > options.maxSize ? options.onError(c) : next();
  };
}
