import type { Context, MiddlewareHandler } from 'hono';
import type { ServerConfig } from '../config';
import { requestProtocol } from './clientIp';

// Headers on every response of the site (docs/security.md). The Content-Security-Policy allows
// scripts and styles from the site's own origin only, no 'unsafe-inline' and no eval: the built
// reference app has no inline script or style (vanilla-extract emits CSS files; React sets
// style properties through the CSSOM, which CSP does not restrict). Cover images may come from
// any https origin (seed services point at remote covers). Nobody may frame the site
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
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  // The home page's star counter reads the public GitHub API (pages/marketing/useRepoStats.ts).
  "connect-src 'self' https://api.github.com",
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
function overHttps(c: Context, config: Pick<ServerConfig, 'publicUrl' | 'trustProxy'>): boolean {
  return config.publicUrl.startsWith('https:') || requestProtocol(c, config.trustProxy) === 'https';
}

export function securityHeaders(config: Pick<ServerConfig, 'publicUrl' | 'trustProxy'>): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has('Content-Security-Policy')) headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (!headers.has('X-Frame-Options')) headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (overHttps(c, config)) headers.set('Strict-Transport-Security', HSTS);
  };
}

/** Gives a server-rendered page SERVER_PAGE_POLICY instead of the app's policy. */
export const serverPagePolicy: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Content-Security-Policy', SERVER_PAGE_POLICY);
};
