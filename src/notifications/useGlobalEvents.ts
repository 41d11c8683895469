import { useSyncExternalStore } from 'react';
import { globalEvents, type GlobalEventsState, type GlobalEventsStore } from './globalEvents';

/** Reads a narrow slice of the global events state; re-renders only when it changes. */
export function useGlobalEvents<T>(selector: (state: GlobalEventsState) => T, store: GlobalEventsStore = globalEvents): T {
  return useSyncExternalStore(
    (onChange) => {
      const subscription = store.subscribe(onChange);
      return () => subscription.unsubscribe();
    },
    () => selector(store.getSnapshot().context),
    () => selector(store.getSnapshot().context),
  );
}
