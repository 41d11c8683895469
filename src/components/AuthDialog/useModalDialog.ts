import { useCallback, useEffect, useRef, type KeyboardEvent, type SyntheticEvent } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The focused element, looking through shadow roots (the opener may sit in a web component). */
function deepActiveElement(): HTMLElement | null {
  let active: Element | null = typeof document === 'undefined' ? null : document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]'));
}

/**
 * Modal behaviour for a native <dialog>: opened with showModal() (the rest of the page becomes
 * inert, the dialog sits in the top layer, which also works inside a shadow root), Tab and
 * Shift+Tab cycle inside it, Escape asks to close, and focus goes back to the element that had
 * it before opening.
 */
export function useModalDialog(onRequestClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const requestClose = useRef(onRequestClose);
  useEffect(() => {
    requestClose.current = onRequestClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = deepActiveElement();
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      if (dialog.open) {
        if (typeof dialog.close === 'function') dialog.close();
        else dialog.removeAttribute('open');
      }
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = useCallback((event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      requestClose.current();
      return;
    }
    if (event.key !== 'Tab' || !ref.current) return;
    const items = focusables(ref.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = deepActiveElement();
    if (event.shiftKey && (active === first || !ref.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !ref.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }, []);

  // The browser's own close request (Escape, a mobile back gesture): keep the dialog mounted
  // until the owner closes it, so focus restoration and callbacks run in one place.
  const onCancel = useCallback((event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    requestClose.current();
  }, []);

  return { ref, onKeyDown, onCancel };
}
