import type { CoreConfig } from '../config/core';

// Where the auth API may send a browser back to: PUBLIC_URL's origin, the CORS origins and
// REDIRECT_ORIGINS. localhost, 127.0.0.1 and [::1] on the same port count as one origin. A
// foreign or malformed redirect_to falls back to the site (no open redirect).

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function sameSite(a: URL, b: URL): boolean {
  if (a.origin === b.origin) return true;
  return a.protocol === b.protocol && a.port === b.port && LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname);
}

export function allowedOrigins(config: CoreConfig): URL[] {
  const origins = [config.publicUrl, ...config.redirectOrigins, ...(config.corsOrigins === '*' ? [] : config.corsOrigins)];
  return origins.map((o) => new URL(o));
}

export function isAllowedRedirect(config: CoreConfig, candidate: string): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return allowedOrigins(config).some((allowed) => sameSite(allowed, url));
}

/** The redirect target: `requested` when allowed, else PUBLIC_URL + `fallbackPath`. */
export function safeRedirect(config: CoreConfig, requested: string | null | undefined, fallbackPath = '/'): string {
  if (requested) {
    // Relative targets are resolved against the site.
    const absolute = requested.startsWith('/') && !requested.startsWith('//') ? `${config.publicUrl}${requested}` : requested;
    if (isAllowedRedirect(config, absolute)) return absolute;
  }
  return `${config.publicUrl}${fallbackPath}`;
}

/** Replaces the URL's fragment with the given parameters (the implicit flow's session hand-over). */
export function withFragment(target: string, params: Record<string, string | number>): string {
  const url = new URL(target);
  url.hash = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return url.toString();
}

/** Adds query parameters (the PKCE flow's `code`, or errors for it). */
export function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Where the browser lands when a request names no (or a refused) redirect_to. product-rules §4: the
 * confirmation link carries emailconfirmed=true; product-rules §2: after a password reset the app shows
 * /signinup?passwordreset=true.
 */
export const DEFAULT_REDIRECT_PATHS = {
  signup: '/signinup?page_state=1&emailconfirmed=true',
  recovery: '/signinup?passwordreset=true',
  magiclink: '/account',
  email_change: '/account/profile',
  oauth: '/account',
} as const;
