/** What a widget is about to open; the host's callback may cancel it. */
export interface NavigationEvent {
  /** The address that will be opened unless prevented. */
  readonly href: string;
  /** How it was triggered. */
  readonly source: 'keyboard' | 'pointer';
  /** Keeps the widget from navigating (it still does its own clean-up). */
  preventDefault(): void;
  /** True once `preventDefault` was called. */
  readonly defaultPrevented: boolean;
}

/**
 * A cancellable navigation event carrying `extra` (the chosen model, the query, ...), shaped like
 * a DOM event so hosts use the habit they have: call `preventDefault()` and route it yourself.
 */
export function createNavigationEvent<T extends object>(href: string, source: NavigationEvent['source'], extra: T): T & NavigationEvent {
  let prevented = false;
  return {
    ...extra,
    href,
    source,
    preventDefault() {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
  };
}
