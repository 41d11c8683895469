import { useCallback } from 'react';
import { globalEvents, type GlobalEventsStore, type MessageKind } from '../../notifications/globalEvents';
import { useGlobalEvents } from '../../notifications/useGlobalEvents';

/** What the overlay shows, derived from the global events state (product-rules §4 "Global notifications"). */
export interface MessageOverlayView {
  success: string | null;
  warning: string | null;
  critical: string | null;
  loading: boolean;
  /** Closing clears the message from the store. */
  close: (kind: Exclude<MessageKind, 'critical'>) => void;
}

export function useMessageOverlay(store: GlobalEventsStore = globalEvents): MessageOverlayView {
  const success = useGlobalEvents((s) => s.success, store);
  const warning = useGlobalEvents((s) => s.warning, store);
  const critical = useGlobalEvents((s) => s.critical, store);
  const loading = useGlobalEvents((s) => s.loading, store);
  const close = useCallback((kind: Exclude<MessageKind, 'critical'>) => store.send({ type: 'clear', kind }), [store]);
  return { success, warning, critical, loading, close };
}
