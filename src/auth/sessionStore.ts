import { createStore } from '../internal/createStore';
import type { AuthChangeEvent, Session } from '@supabase/auth-js';
import { globalEvents as sharedGlobalEvents, type GlobalEventsStore } from '../notifications/globalEvents';
import { onRefreshRejected, type LimeAuthClient } from './client';
import { toLimeAuthError } from './errors';
import { applyAuthEvent, initialSessionState, type SessionState } from './sessionState';

/** The part of `document` the store needs to pause auto-refresh while the page is hidden. */
export interface VisibilitySource {
  readonly visibilityState: string;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

export type AutoRefreshState = 'running' | 'paused' | 'stopped';

/** The state the session store holds: the session and login status, whether the first check has finished, and a sign-in link's error. */
export interface SessionStoreState extends SessionState {
  /** Set when the session in the URL (an e-mail link, an OAuth return) could not be used. */
  linkError: { code: string | null; message: string } | null;
  /** The session has been read from storage or the URL. */
  initialized: boolean;
  /** product-rules §4: auto-refresh runs on a timer, paused while the page is hidden. */
  autoRefresh: AutoRefreshState;
}

export interface SessionStoreOptions {
  /** Store that mirrors `is_logged_in`; null mirrors nowhere. @default the shared `globalEvents` */
  globalEvents?: GlobalEventsStore | null;
  /** Page visibility. @default `document` in a browser; none elsewhere (auto-refresh always runs) */
  visibility?: VisibilitySource | null;
  /** Clock, for the INITIAL_SESSION expiry check. @default Date.now */
  now?: () => number;
}

const initialStoreState: SessionStoreState = {
  ...initialSessionState,
  linkError: null,
  initialized: false,
  autoRefresh: 'stopped',
};

/**
 * The session store: follows the auth client's events (product-rules §4), mirrors `is_logged_in` into the
 * global events store, owns the auto-refresh timer (runs while the page is visible, pauses while
 * hidden) and signs out when the server refuses the refresh token.
 *
 * The client persists the session (localStorage) on every event but SIGNED_OUT, which removes it.
 * `start()` is reference-counted so several widgets (and React StrictMode) can share one store.
 */
export function createSessionStore(client: LimeAuthClient, options: SessionStoreOptions = {}) {
  const now = options.now ?? Date.now;
  const mirror = options.globalEvents === undefined ? sharedGlobalEvents : options.globalEvents;
  const visibility = options.visibility !== undefined ? options.visibility : typeof document !== 'undefined' ? document : null;

  const store = createStore({
    context: { ...initialStoreState } as SessionStoreState,
    on: {
      authEvent: (context, event: { event: AuthChangeEvent; session: Session | null; at: number }) => ({
        ...context,
        ...applyAuthEvent(context, event.event, event.session, event.at),
      }),
      initialized: (context, event: { linkError: SessionStoreState['linkError'] }) => ({
        ...context,
        initialized: true,
        linkError: event.linkError,
      }),
      autoRefresh: (context, event: { state: AutoRefreshState }) => ({ ...context, autoRefresh: event.state }),
    },
  });

  let lastMirrored: boolean | null | undefined;
  store.subscribe(({ context }) => {
    if (mirror && context.isLoggedIn !== lastMirrored) {
      lastMirrored = context.isLoggedIn;
      mirror.send({ type: 'setLoggedIn', loggedIn: context.isLoggedIn });
    }
  });

  let users = 0;
  let generation = 0;
  let teardown: (() => void) | null = null;
  let initializedPromise: Promise<void> | null = null;

  function applyVisibility() {
    if (!visibility || visibility.visibilityState === 'visible') {
      void client.startAutoRefresh();
      store.send({ type: 'autoRefresh', state: 'running' });
    } else {
      void client.stopAutoRefresh();
      store.send({ type: 'autoRefresh', state: 'paused' });
    }
  }

  function subscribe() {
    const run = ++generation;
    const { data } = client.onAuthStateChange((event, session) => {
      // Only record here: calling back into the client from this callback can deadlock it.
      store.send({ type: 'authEvent', event, session, at: now() });
    });
    const stopRejected = onRefreshRejected(client, () => {
      // product-rules §4: a non-retryable refresh failure removes the session and signals SIGNED_OUT.
      // auth-js already does so when the access token has expired; this covers a refusal
      // while it is still valid. A local sign-out removes the session and emits SIGNED_OUT.
      if (run !== generation || !store.getSnapshot().context.session) return;
      void client.signOut({ scope: 'local' }).catch(() => {});
    });
    const onVisibilityChange = () => {
      if (run === generation) applyVisibility();
    };
    initializedPromise = client.initialize().then(
      ({ error }) => {
        if (run !== generation) return;
        const linkError = error ? toLimeAuthError(error) : null;
        store.send({ type: 'initialized', linkError: linkError && { code: linkError.code, message: linkError.message } });
        // Taking over from the client's own visibility handling (startAutoRefresh and
        // stopAutoRefresh remove it) keeps one owner for the timer, the store.
        visibility?.addEventListener('visibilitychange', onVisibilityChange);
        applyVisibility();
      },
      (error: unknown) => {
        if (run !== generation) return;
        const failure = toLimeAuthError(error);
        store.send({ type: 'initialized', linkError: { code: failure.code, message: failure.message } });
      },
    );
    teardown = () => {
      generation++;
      data.subscription.unsubscribe();
      stopRejected();
      visibility?.removeEventListener('visibilitychange', onVisibilityChange);
      void client.stopAutoRefresh();
      store.send({ type: 'autoRefresh', state: 'stopped' });
    };
  }

  return {
    client,
    /** Current state. */
    getSnapshot: (): SessionStoreState => store.getSnapshot().context,
    /** Calls `listener` on every change; returns the unsubscribe. */
    subscribe(listener: (state: SessionStoreState) => void): () => void {
      const subscription = store.subscribe(({ context }) => listener(context));
      return () => subscription.unsubscribe();
    },
    /** Starts following the client (idempotent, counted); returns the matching release. */
    start(): () => void {
      users++;
      if (users === 1) subscribe();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        users--;
        if (users === 0) {
          teardown?.();
          teardown = null;
        }
      };
    },
    /** Resolves once the session has been read from storage or the URL (after `start()`). */
    whenInitialized(): Promise<void> {
      return initializedPromise ?? Promise.resolve();
    },
    /** The signed-in user's access token, refreshed first if it is about to expire. */
    async getAccessToken(): Promise<string | null> {
      const { data, error } = await client.getSession();
      if (error) return null;
      return data.session?.access_token ?? null;
    },
    /** Signs out everywhere; product-rules §8: a failure returns false. */
    async signOut(): Promise<boolean> {
      try {
        const { error } = await client.signOut();
        return !error;
      } catch {
        return false;
      }
    },
  };
}

/** The page's session store: the current session, sign-out and refresh, with a subscribe for React. */
export type SessionStore = ReturnType<typeof createSessionStore>;

const stores = new WeakMap<LimeAuthClient, SessionStore>();

/** The page's one session store for a client (see `getAuthClient`). */
export function getSessionStore(client: LimeAuthClient): SessionStore {
  let store = stores.get(client);
  if (!store) {
    store = createSessionStore(client);
    stores.set(client, store);
  }
  return store;
}
