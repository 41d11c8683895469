import type { AuthChangeEvent, Session } from '@supabase/auth-js';

/** The session as the app sees it: `isLoggedIn` null means not yet known (product-rules §3 global events). */
export interface SessionState {
  isLoggedIn: boolean | null;
  /** The current session; null when signed out. Kept after PASSWORD_RECOVERY (state 5 needs it). */
  session: Session | null;
  /** Last auth event applied. */
  lastEvent: AuthChangeEvent | null;
}

export const initialSessionState: SessionState = { isLoggedIn: null, session: null, lastEvent: null };

/**
 * product-rules §4 "Authentication state", in one place:
 * - SIGNED_OUT, or any event without a session: logged out, session cleared;
 * - INITIAL_SESSION: logged in only if `expires_at` is later than now;
 * - SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED: logged in;
 * - PASSWORD_RECOVERY: logged out (the recovery session is kept to set the new password);
 * - MFA_CHALLENGE_VERIFIED (spec lists the event, not its effect): logged in, as it brings a
 *   fully verified session.
 * The session is kept in every case but signed out.
 */
export function applyAuthEvent(state: SessionState, event: AuthChangeEvent, session: Session | null, nowMs: number): SessionState {
  if (event === 'SIGNED_OUT' || !session) return { isLoggedIn: false, session: null, lastEvent: event };
  switch (event) {
    case 'INITIAL_SESSION':
      return { isLoggedIn: typeof session.expires_at === 'number' && session.expires_at * 1000 > nowMs, session, lastEvent: event };
    case 'SIGNED_IN':
    case 'TOKEN_REFRESHED':
    case 'USER_UPDATED':
    case 'MFA_CHALLENGE_VERIFIED':
      return { isLoggedIn: true, session, lastEvent: event };
    case 'PASSWORD_RECOVERY':
      return { isLoggedIn: false, session, lastEvent: event };
    default:
      // An event this version does not know: keep the status, take the newer session.
      return { ...state, session, lastEvent: event };
  }
}
