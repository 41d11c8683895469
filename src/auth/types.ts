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
