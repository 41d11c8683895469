import type { Session, User } from '@supabase/auth-js';

export type { Session, User };

/** 'page' renders the sign-in page (/signinup); 'overlay' a modal dialog over the host page. */
export type AuthDialogMode = 'page' | 'overlay';

/** App paths the dialog navigates to in page mode (product-rules §2 redirects). */
export interface AuthRoutes {
  /** Where the sign-in page sends a signed-in user. @default '/account' */
  account: string;
  /** Where sign-up (and its confirmation link) sends the user. @default '/account/dashboard' */
  dashboard: string;
}

export const DEFAULT_AUTH_ROUTES: AuthRoutes = { account: '/account', dashboard: '/account/dashboard' };

/**
 * Whether navigating to `to` (an app path, or a URL) would land where the page already is
 * (`here`, the page's absolute URL): the same origin, path and query. The fragment is left out (it
 * loads nothing), and so is a trailing slash, which servers add or strip by redirect. Page mode
 * never navigates there: in a one-route app every path serves the same page, and navigating to it
 * again would load a page that sees the session and navigates again, for ever (docs/frameworks.md,
 * "A sign-in page in a one-route app"). Without a known `here` (no window) the answer is no.
 */
export function isSamePlace(to: string, here: string | null | undefined): boolean {
  if (!here) return false;
  let current: URL;
  let target: URL;
  try {
    current = new URL(here);
    target = new URL(to, current);
  } catch {
    return false;
  }
  const path = (url: URL) => url.pathname.replace(/\/+$/, '') || '/';
  return target.origin === current.origin && path(target) === path(current) && target.search === current.search;
}

/** Absolute URLs the auth server sends the browser back to (e-mail links, OAuth). */
export interface AuthRedirectUrls {
  /** Target of the sign-up confirmation link (product-rules §4: carries emailconfirmed=true). */
  emailConfirmed: string;
  /** Target of the recovery link (product-rules §2: /signinup?passwordreset=true). */
  passwordReset: string;
  /** Where a social sign-in returns. */
  social: string;
}

/** Default redirect URLs on the given origin, following the product-rules §2 route table. */
export function defaultRedirectUrls(origin: string): AuthRedirectUrls {
  const base = origin.replace(/\/+$/, '');
  return {
    emailConfirmed: `${base}/signinup?emailconfirmed=true`,
    passwordReset: `${base}/signinup?passwordreset=true`,
    // Back to the sign-in page: it sees a signed-in visitor, registers the sign-in with the
    // platform and sends them on to the account area like any other sign-in.
    social: `${base}/signinup?page_state=1`,
  };
}
