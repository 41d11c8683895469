import { isSocialProvider, type SocialProvider } from './socialProviders';

// A social sign-in that fails comes back to the page with the error in the URL (GoTrue's
// redirect: `error`, `error_code`, `error_description`, in the fragment for the implicit flow,
// in the query for PKCE). The dialog shows it inline and takes it out of the address bar.
// The redirect does not say which provider it was, so the dialog notes the provider in
// sessionStorage before leaving (one tab, one origin: exactly the round trip's scope). Without
// that note the URL is left alone: on a host page that embeds the overlay, an `error` parameter
// may be the host's own.

const PROVIDER_KEY = 'lime-oauth-provider';
const ERROR_PARAMS = ['error', 'error_code', 'error_description'];

export interface OAuthReturn {
  /** The provider the dialog left for. */
  provider: SocialProvider;
  /** The URL without the error parameters (what the address bar should show). */
  cleanUrl: string;
}

/** The OAuth error a URL carries, with the URL cleaned of it; null when it carries none. */
export function parseOAuthError(href: string): Omit<OAuthReturn, 'provider'> | null {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.slice(1));
  const inQuery = url.searchParams.has('error');
  if (!inQuery && !hash.has('error')) return null;
  for (const name of ERROR_PARAMS) {
    url.searchParams.delete(name);
    hash.delete(name);
  }
  url.hash = hash.size ? hash.toString() : '';
  return { cleanUrl: url.href.replace(/#$/, '') };
}

/** Notes the provider a social sign-in is leaving for (see above); storage may be off. */
export function noteOAuthProvider(provider: SocialProvider): void {
  try {
    sessionStorage.setItem(PROVIDER_KEY, provider);
  } catch {
    /* no storage: no note, so the error is not taken (see above) */
  }
}

/**
 * In a browser: the OAuth error the page was opened with after a social sign-in this dialog
 * started, its provider, and the address bar cleaned of it (history.replaceState, no reload).
 * Null when the URL carries no error or no such sign-in was noted.
 */
export function takeOAuthReturn(): OAuthReturn | null {
  if (typeof window === 'undefined') return null;
  // Once per page load: a second dialog (or React's double render) finds it taken.
  if (taken !== undefined) return taken;
  taken = readOAuthReturn();
  return taken;
}

let taken: OAuthReturn | null | undefined;

function readOAuthReturn(): OAuthReturn | null {
  const found = parseOAuthError(window.location.href);
  let noted: string | null = null;
  try {
    noted = sessionStorage.getItem(PROVIDER_KEY);
    sessionStorage.removeItem(PROVIDER_KEY);
  } catch {
    /* no storage */
  }
  if (!found || !isSocialProvider(noted)) return null;
  window.history.replaceState(window.history.state, '', found.cleanUrl);
  return { ...found, provider: noted };
}
