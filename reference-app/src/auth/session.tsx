import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { AuthProvider, getAuthClient, getSessionStore, useAuth, type SessionStore } from '@limelight/widgets/auth';
import { notify } from '@limelight/widgets/notifications';
import { useNavigate } from 'react-router';
import { usePlatform, useStrings } from '@limelight/widgets/platform';

// App.tsx hands `getAccessToken` to the PlatformProvider, above this provider; the store it
// reads from is set here, during the provider's first render, before any page effect runs.
let current: SessionStore | null = null;

/** The signed-in user's access token (refreshed first if about to expire); null when anonymous. */
export async function getAccessToken(): Promise<string | null> {
  return current ? current.getAccessToken() : null;
}

/**
 * The site's session: the page's one auth client for the configured auth URL and key, and its
 * session store (product-rules §4), started for the whole app so `is_logged_in` is known everywhere.
 */
export function AppAuthProvider({ children }: { children: ReactNode }) {
  const { authUrl, authKey } = usePlatform();
  const store = useMemo(() => {
    const next = getSessionStore(getAuthClient({ authUrl, authKey }));
    current = next;
    return next;
  }, [authUrl, authKey]);
  return <AuthProvider store={store}>{children}</AuthProvider>;
}

// A logout the user asked for. The router commits the move to / in a transition, which the
// signed-out re-render of the account area can overtake; its route guard then sends the user
// to / (product-rules §2: where a logout lands) rather than to the sign-in page.
let loggingOut = false;
const logoutListeners = new Set<() => void>();

function setLoggingOut(value: boolean) {
  if (loggingOut === value) return;
  loggingOut = value;
  logoutListeners.forEach((listener) => listener());
}

/** True from the click on Logout until a route guard that saw it is gone. */
export function useLoggingOut(): boolean {
  return useSyncExternalStore(
    (listener) => {
      logoutListeners.add(listener);
      return () => logoutListeners.delete(listener);
    },
    () => loggingOut,
    () => false,
  );
}

/** Called by route guards when they unmount: the logout, if any, has landed. */
export function logoutLanded() {
  setLoggingOut(false);
}

/**
 * Logout (product-rules §2: lands on /). A failed sign-out (product-rules §8: returns false) keeps the user
 * signed in and shows the generic error.
 */
export function useSignOut(): () => Promise<boolean> {
  const { store } = useAuth();
  const navigate = useNavigate();
  const strings = useStrings();
  return useCallback(async () => {
    setLoggingOut(true);
    await navigate('/');
    const ok = await store.signOut();
    if (!ok) {
      setLoggingOut(false);
      notify.warning(strings.notifications.defaultError);
    }
    return ok;
  }, [store, navigate, strings]);
}
