import { useEffect, useState } from 'react';
import { usePlatform } from '../config/PlatformProvider';
import { useGlobalEvents } from '../notifications/useGlobalEvents';
import type { GlobalEventsStore } from '../notifications/globalEvents';
import { AUTH_WAIT_TIMEOUT_MS, decideGuard, SIGN_IN_PATH, type GuardDecision } from './guard';

/** Options of `useRequireAuth`: where to send a signed-out visitor and how long to wait for the login status. */
export interface UseRequireAuthOptions {
  /** How long an unknown login status may last. @default 3000 (product-rules §9) */
  timeoutMs?: number;
  /** Where to send a visitor who is not logged in. @default '/signinup?page_state=1' */
  signInPath?: string;
  /** Store holding `is_logged_in`. @default the shared `globalEvents` */
  store?: GlobalEventsStore;
}

/**
 * Headless route guard (product-rules §4). Reads `is_logged_in` from the global events store, waits up to
 * `timeoutMs` while it is unknown, and navigates to sign-in through the platform's `navigate()`
 * when the visitor is not (or not in time) logged in. Returns the decision so the caller renders
 * the protected content only on 'pass'.
 */
export function useRequireAuth(options: UseRequireAuthOptions = {}): GuardDecision {
  const { timeoutMs = AUTH_WAIT_TIMEOUT_MS, signInPath = SIGN_IN_PATH, store } = options;
  const { navigate } = usePlatform();
  const isLoggedIn = useGlobalEvents((state) => state.is_logged_in, store);
  const [timedOut, setTimedOut] = useState(false);
  const decision = decideGuard(isLoggedIn, timedOut ? timeoutMs : 0, timeoutMs);

  useEffect(() => {
    if (decision !== 'wait') return;
    const timer = setTimeout(() => setTimedOut(true), timeoutMs);
    return () => clearTimeout(timer);
  }, [decision, timeoutMs]);

  useEffect(() => {
    if (decision === 'redirect') navigate(signInPath);
  }, [decision, navigate, signInPath]);

  return decision;
}
