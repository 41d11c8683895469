import type { Strings } from '../config/strings';
import { messageForStatus } from '../api/statusMessages';
import type { ApiFailure } from '../api/result';
import { globalEvents, type GlobalEventsStore, type MessageKind } from './globalEvents';

/** Options of a message: how long it stays before it clears itself. */
export interface ShowOptions {
  /** Clear the message automatically after this many milliseconds. */
  autoClearMs?: number;
}

/** Imperative helpers over a global events store (product-rules §4 "Global notifications"). */
export function createNotifier(store: GlobalEventsStore = globalEvents) {
  function show(kind: MessageKind, message: string, options: ShowOptions = {}) {
    store.send({ type: 'show', kind, message });
    if (options.autoClearMs !== undefined && options.autoClearMs > 0) {
      setTimeout(() => store.send({ type: 'expire', kind, message }), options.autoClearMs);
    }
  }
  return {
    success: (message: string, options?: ShowOptions) => show('success', message, options),
    warning: (message: string, options?: ShowOptions) => show('warning', message, options),
    critical: (message: string, options?: ShowOptions) => show('critical', message, options),
    clear: (kind: MessageKind) => store.send({ type: 'clear', kind }),
    setLoading: (loading: boolean) => store.send({ type: 'setLoading', loading }),
    setLoggedIn: (loggedIn: boolean | null) => store.send({ type: 'setLoggedIn', loggedIn }),
    /**
     * Shows the product-rules §8 message for a failed API result (warning or critical, 404 auto-clears).
     * `text` replaces the generic text for other statuses >= 400.
     */
    apiFailure: (
      failure: Pick<ApiFailure, 'status' | 'error'>,
      strings: Strings['notifications']['status'],
      options: { text?: string; critical?: boolean } = {},
    ) => {
      const message = messageForStatus(failure.status, strings, options);
      if (message) show(message.presentation, message.message, { autoClearMs: message.autoClearMs });
      return message;
    },
  };
}

/** The message channel `createNotifier` returns (`notify` is the page's). */
export type Notifier = ReturnType<typeof createNotifier>;

/** Notifier over the shared page-wide store. */
export const notify: Notifier = createNotifier();
