import type { MiddlewareHandler } from 'hono';
import type { CoreConfig } from '../config/core';
import { requestProtocol } from './clientIp';

// Headers on every response of the site (docs/security.md). The Content-Security-Policy allows
// scripts and styles from the site's own origin only, no 'unsafe-inline' and no eval: the built
// reference app has no inline script or style (vanilla-extract emits CSS files; React sets
// style properties through the CSSOM, which CSP does not restrict). Images come from the site
// alone: covers are the platform's own files or its designed covers (media/covers.ts), never a
// URL on another host; data: is the search's bundled fallback picture. Nobody may frame the site
// (clickjacking); HSTS is sent only where the site is reached over HTTPS, since a browser that
// got it over plain HTTP on localhost would refuse that origin later.

/** The site's policy; a route that needs a different one sets its own header first. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // The code highlighter's Web Worker (src/code/highlightWorker.ts): a file of the site's own,
  // never a blob: URL. Said explicitly rather than left to fall back to script-src.
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  // The site's own origin only: the star counter is read by the server (server/site/repoStats.ts).
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Small pages the server renders itself (dev mailbox, sandbox checkout, unsubscribe): no script
 * at all, their own inline styles allowed (every value in them is escaped).
 */
export const SERVER_PAGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const HSTS = 'max-age=31536000; includeSubDomains';

/** Whether this request reached the site over HTTPS (PUBLIC_URL, or a trusted proxy's word). */
export function overHttps(request: Pick<Request, 'url' | 'headers'>, config: Pick<CoreConfig, 'publicUrl' | 'trustProxy'>): boolean {
  return config.publicUrl.startsWith('https:') || requestProtocol(request, config.trustProxy) === 'https';
}

const PLAIN_HTTP_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
const HTTPS_HEADERS: Readonly<Record<string, string>> = { ...PLAIN_HTTP_HEADERS, 'Strict-Transport-Security': HSTS };

/** What every answer carries (also written by the catalogue's fast lane, catalogueFastLane.ts). */
export const securityHeaderValues = (https: boolean) => (https ? HTTPS_HEADERS : PLAIN_HTTP_HEADERS);

/** Headers a route may set for itself (a page with its own policy or framing rule). */
const ROUTE_MAY_SET = new Set(['Content-Security-Policy', 'X-Frame-Options']);

export function securityHeaders(config: Pick<CoreConfig, 'publicUrl' | 'trustProxy'>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    for (const [name, value] of Object.entries(securityHeaderValues(overHttps(c.req.raw, config)))) {
      if (!ROUTE_MAY_SET.has(name) || !headers.has(name)) headers.set(name, value);
    }
  };
}

/** Gives a server-rendered page SERVER_PAGE_POLICY instead of the app's policy. */
export const serverPagePolicy: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', SERVER_PAGE_POLICY);
};
