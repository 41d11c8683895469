import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { usePlatform } from '../config/PlatformProvider';
import { getAuthClient, type LimeAuthClient } from './client';
import { getSessionStore, type SessionStore, type SessionStoreState } from './sessionStore';

/** What `useAuth()` returns: the session store and the auth client the widgets share. */
export interface AuthContextValue {
  client: LimeAuthClient;
  store: SessionStore;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** Props of `AuthProvider`. */
export interface AuthProviderProps {
  /**
   * Session store to share. @default the page's store for the platform's authUrl and authKey
   */
  store?: SessionStore;
  /** The widgets (or app) that use the session. */
  children?: ReactNode;
}

/** Starts the session store and hands it, with its client, to every auth widget below. */
export function AuthProvider({ store: given, children }: AuthProviderProps) {
  const fallback = useFallbackAuth(given === undefined);
  const value = useMemo<AuthContextValue>(() => {
    const store = given ?? fallback!.store;
    return { client: store.client, store };
  }, [given, fallback]);
  useEffect(() => value.store.start(), [value.store]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

function useFallbackAuth(enabled: boolean): AuthContextValue | null {
  const { authUrl, authKey } = usePlatform();
  return useMemo(() => {
    if (!enabled) return null;
    const client = getAuthClient({ authUrl, authKey });
    return { client, store: getSessionStore(client) };
  }, [enabled, authUrl, authKey]);
}

/**
 * The auth client and session store. Without an `AuthProvider` it falls back to the page's
 * shared ones for the platform's authUrl and authKey (so a lone widget works), and keeps that
 * store started while mounted.
 */
export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  const fallback = useFallbackAuth(context === null);
  const value = context ?? fallback!;
  const started = context === null ? value.store : null;
  useEffect(() => started?.start(), [started]);
  return value;
}

/** A narrow slice of the session state; re-renders only when the slice changes. */
export function useSession<T>(selector: (state: SessionStoreState) => T): T {
  const { store: source } = useAuth();
  return useSyncExternalStore(
    source.subscribe,
    () => selector(source.getSnapshot()),
    () => selector(source.getSnapshot()),
  );
}
