import type { Context, MiddlewareHandler } from 'hono';
import { appendVary, compress, isCompressibleType, MIN_COMPRESS_BYTES, preferredEncoding } from './encoding';

// Compresses API answers (JSON and other text) by Accept-Encoding (docs/deploy.md,
// "Compression"). Left alone: bodies under MIN_COMPRESS_BYTES, answers already encoded (the
// catalogue cache and static files bring their own), server-sent events (text/event-stream
// must reach the client event by event) and non-text types.

/** Bodies above this are streams (downloads, files) rather than answers worth buffering. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * Swaps the response. Hono's `c.res` setter copies the old response's headers over the new
 * one's (so middleware can add headers); clearing it first keeps the new headers as given.
 */
export function replaceResponse(c: Context, res: Response): void {
  c.res = undefined;
  c.res = res;
}

export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // Headers and status only until a body is worth compressing: @hono/node-server writes a
    // Response whose body was never touched straight to the socket, and touching it (even
    // reading `res.body`) turns it into a web stream, the slowest path per request.
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304) return;
    const type = res.headers.get('content-type');
    if (!isCompressibleType(type) || res.headers.has('content-encoding')) return;
    if (/\bno-transform\b/i.test(res.headers.get('cache-control') ?? '')) return;
    const length = Number(res.headers.get('content-length') ?? NaN);
    if (length < MIN_COMPRESS_BYTES || length > MAX_BUFFERED_BYTES) return;
    // The answer varies by Accept-Encoding whether or not this client gets it compressed.
    const vary = appendVary(res.headers.get('vary'), 'Accept-Encoding');
    const encoding = preferredEncoding(c.req.header('accept-encoding'));
    if (!encoding) {
      res.headers.set('Vary', vary);
      return;
    }
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    headers.set('Vary', vary);
    if (body.length < MIN_COMPRESS_BYTES) {
      replaceResponse(c, new Response(body, { status: res.status, headers }));
      return;
    }
    const encoded = await compress(body, encoding, 'fast');
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(encoded.length));
    // A strong ETag names the identity bytes; the encoded copy gets a weak one (RFC 9110 8.8.3).
    const etag = headers.get('etag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    replaceResponse(c, new Response(encoded, { status: res.status, headers }));
  };
}
