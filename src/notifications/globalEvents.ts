import { createStore } from '../internal/createStore';

/** Global events state of product-rules §3. `is_logged_in` is null while the session is not yet known. */
export interface GlobalEventsState {
  is_logged_in: boolean | null;
  success: string | null;
  warning: string | null;
  critical: string | null;
  loading: boolean;
}

/** The tone of a message: success, warning or critical. */
export type MessageKind = 'success' | 'warning' | 'critical';

export const initialGlobalEvents: GlobalEventsState = {
  is_logged_in: null,
  success: null,
  warning: null,
  critical: null,
  loading: false,
};

/** A store of global events; the app uses the shared `globalEvents`, tests make their own. */
export function createGlobalEventsStore(initial: Partial<GlobalEventsState> = {}) {
  return createStore({
    context: { ...initialGlobalEvents, ...initial } as GlobalEventsState,
    on: {
      show: (context, event: { kind: MessageKind; message: string }) => ({ ...context, [event.kind]: event.message }),
      clear: (context, event: { kind: MessageKind }) => ({ ...context, [event.kind]: null }),
      // Clears only if the message is still the one that was shown, so a newer one survives
      // an older message's timer.
      expire: (context, event: { kind: MessageKind; message: string }) =>
        context[event.kind] === event.message ? { ...context, [event.kind]: null } : context,
      setLoading: (context, event: { loading: boolean }) => ({ ...context, loading: event.loading }),
      setLoggedIn: (context, event: { loggedIn: boolean | null }) => ({ ...context, is_logged_in: event.loggedIn }),
      reset: () => ({ ...initialGlobalEvents }),
    },
  });
}

export type GlobalEventsStore = ReturnType<typeof createGlobalEventsStore>;

/** The page-wide store shared by every widget and the reference app. */
export const globalEvents: GlobalEventsStore = createGlobalEventsStore();
