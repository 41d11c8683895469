import { describe, expect, it } from 'vitest';
import { applyAuthEvent, initialSessionState, type SessionState } from '../../../src/auth/sessionState';
import { fakeSession } from './harness';

const now = Date.UTC(2026, 0, 1);
const inSeconds = (s: number) => Math.floor(now / 1000) + s;
const live = fakeSession({ expires_at: inSeconds(3600) });
const expired = fakeSession({ expires_at: inSeconds(-1) });
const loggedIn: SessionState = { isLoggedIn: true, session: live, lastEvent: 'SIGNED_IN' };

describe('session state follows auth events (product-rules §4 "Authentication state")', () => {
  it('starts unknown: is_logged_in null, no session', () => {
    expect(initialSessionState).toEqual({ isLoggedIn: null, session: null, lastEvent: null });
  });

  it('SIGNED_OUT: logged out and the session cleared', () => {
    expect(applyAuthEvent(loggedIn, 'SIGNED_OUT', live, now)).toEqual({ isLoggedIn: false, session: null, lastEvent: 'SIGNED_OUT' });
  });

  it.each(['INITIAL_SESSION', 'SIGNED_IN', 'TOKEN_REFRESHED', 'USER_UPDATED', 'PASSWORD_RECOVERY', 'MFA_CHALLENGE_VERIFIED'] as const)(
    'a missing session (%s with null): logged out and cleared',
    (event) => {
      expect(applyAuthEvent(loggedIn, event, null, now)).toEqual({ isLoggedIn: false, session: null, lastEvent: event });
    },
  );

  it('INITIAL_SESSION counts as logged in only if expires_at is later than now', () => {
    expect(applyAuthEvent(initialSessionState, 'INITIAL_SESSION', live, now).isLoggedIn).toBe(true);
    expect(applyAuthEvent(initialSessionState, 'INITIAL_SESSION', expired, now).isLoggedIn).toBe(false);
    const atNow = fakeSession({ expires_at: Math.floor(now / 1000) });
    expect(applyAuthEvent(initialSessionState, 'INITIAL_SESSION', atNow, now).isLoggedIn).toBe(false);
    const noExpiry = fakeSession({ expires_at: undefined });
    expect(applyAuthEvent(initialSessionState, 'INITIAL_SESSION', noExpiry, now).isLoggedIn).toBe(false);
    // The session is kept either way (the client refreshes an expired one).
    expect(applyAuthEvent(initialSessionState, 'INITIAL_SESSION', expired, now).session).toBe(expired);
  });

  it.each(['SIGNED_IN', 'TOKEN_REFRESHED', 'USER_UPDATED'] as const)('%s: logged in, session kept', (event) => {
    const state = applyAuthEvent(initialSessionState, event, live, now);
    expect(state).toEqual({ isLoggedIn: true, session: live, lastEvent: event });
  });

  it('PASSWORD_RECOVERY: logged out, the recovery session kept for setting the new password', () => {
    expect(applyAuthEvent(loggedIn, 'PASSWORD_RECOVERY', live, now)).toEqual({
      isLoggedIn: false,
      session: live,
      lastEvent: 'PASSWORD_RECOVERY',
    });
  });

  it('MFA_CHALLENGE_VERIFIED (effect not in the spec): logged in with the verified session', () => {
    expect(applyAuthEvent(initialSessionState, 'MFA_CHALLENGE_VERIFIED', live, now).isLoggedIn).toBe(true);
  });

  it('an event this version does not know keeps the status', () => {
    const state = applyAuthEvent(loggedIn, 'SOMETHING_NEW' as never, live, now);
    expect(state.isLoggedIn).toBe(true);
  });
});
