import { useMemo } from 'react';

/**
 * The `environment` downshift (and anything else that listens for outside clicks) gets when it
 * renders inside a shadow root.
 *
 * Why not `window`: an event listened for on `window` is retargeted to the host element, so a
 * click on a result inside the shadow root looks like a click outside the combobox and closes
 * it before the selection lands. Why not the shadow root alone: clicks elsewhere on the page
 * never reach it, so the list would not close on an outside click. So listeners are added to
 * `window` and receive the event with `target` set to the real, innermost target
 * (`composedPath()[0]`), and `document` answers `activeElement` and `getElementById` from the
 * shadow root.
 */
export interface ShadowEnvironment {
  addEventListener: Window['addEventListener'];
  removeEventListener: Window['removeEventListener'];
  document: Document;
  Node: typeof Node;
}

type AnyListener = EventListenerOrEventListenerObject;

function retarget(event: Event): Event {
  const inner = event.composedPath()[0];
  if (!inner || inner === event.target) return event;
  return new Proxy(event, {
    get(target, property) {
      if (property === 'target') return inner;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export function createShadowEnvironment(root: ShadowRoot): ShadowEnvironment {
  const view = root.ownerDocument.defaultView ?? window;
  const wrapped = new Map<string, Map<AnyListener, EventListener>>();

  const wrap = (type: string, listener: AnyListener): EventListener => {
    let byListener = wrapped.get(type);
    if (!byListener) wrapped.set(type, (byListener = new Map()));
    let w = byListener.get(listener);
    if (!w) {
      w = (event: Event) => {
        const e = retarget(event);
        if (typeof listener === 'function') listener(e);
        else listener.handleEvent(e);
      };
      byListener.set(listener, w);
    }
    return w;
  };

  const shadowDocument = new Proxy(root.ownerDocument, {
    get(doc, property) {
      // The focused element inside this widget, else whatever the page has focused.
      if (property === 'activeElement') return root.activeElement ?? doc.activeElement;
      if (property === 'getElementById') return (id: string) => root.getElementById(id) ?? doc.getElementById(id);
      const value = Reflect.get(doc, property, doc) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(doc) : value;
    },
  });

  return {
    addEventListener: ((type: string, listener: AnyListener | null, options?: boolean | AddEventListenerOptions) => {
      if (listener) view.addEventListener(type, wrap(type, listener), options);
    }) as Window['addEventListener'],
    removeEventListener: ((type: string, listener: AnyListener | null, options?: boolean | EventListenerOptions) => {
      const w = listener && wrapped.get(type)?.get(listener);
      if (w) view.removeEventListener(type, w, options);
    }) as Window['removeEventListener'],
    document: shadowDocument,
    Node: (view as unknown as { Node: typeof Node }).Node,
  };
}

/** The environment for a widget's shadow root, made once per root. */
export function useShadowEnvironment(root: ShadowRoot): ShadowEnvironment {
  return useMemo(() => createShadowEnvironment(root), [root]);
}
