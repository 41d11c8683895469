/** product-rules §9: auth wait timeout. */
export const AUTH_WAIT_TIMEOUT_MS = 3000;

/** product-rules §4: the guard sends to sign-in, page_state 1. */
export const SIGN_IN_PATH = '/signinup?page_state=1';

export type GuardDecision = 'pass' | 'wait' | 'redirect';

/**
 * Route guard of product-rules §4: pass when logged in; while the status is unknown (null) wait, up to
 * `timeoutMs`, then go to sign-in; not logged in: go to sign-in.
 */
export function decideGuard(isLoggedIn: boolean | null, waitedMs: number, timeoutMs: number = AUTH_WAIT_TIMEOUT_MS): GuardDecision {
  if (isLoggedIn === true) return 'pass';
  if (isLoggedIn === false) return 'redirect';
  return waitedMs >= timeoutMs ? 'redirect' : 'wait';
}
