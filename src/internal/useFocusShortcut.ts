import { useEffect } from 'react';

const EDITABLE_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
  '',
]);

/** True for an element the user types into (inputs of text-like types, textareas, selects, contenteditable). */
export function isEditableElement(element: EventTarget | null | undefined): boolean {
  if (!element || typeof (element as Element).tagName !== 'string') return false;
  const el = element as HTMLElement;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return EDITABLE_INPUT_TYPES.has(((el as HTMLInputElement).type || '').toLowerCase());
  return el.isContentEditable === true;
}

/** Which focus shortcut an event is, if any: Ctrl/Cmd+K or '/' (the DocSearch pair). */
export function focusShortcutOf(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
): 'mod-k' | 'slash' | null {
  if ((event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) return 'mod-k';
  if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) return 'slash';
  return null;
}

/** Where the shortcut listens: the window, or a stand-in (tests, an iframe's window). */
export interface ShortcutEnvironment {
  addEventListener: Window['addEventListener'];
  removeEventListener: Window['removeEventListener'];
}

/**
 * Ctrl/Cmd+K and '/' focus (and select) the given input, except while the user types in another
 * editable element. Inside a shadow root the event's composed path names the real target.
 */
export function useFocusShortcut(input: { current: HTMLInputElement | null }, enabled: boolean, environment?: ShortcutEnvironment) {
  useEffect(() => {
    if (!enabled) return;
    const target: ShortcutEnvironment | undefined = environment ?? (typeof window !== 'undefined' ? window : undefined);
    if (!target) return;
    const onKeyDown = (event: Event) => {
      const key = event as KeyboardEvent;
      if (key.defaultPrevented || key.isComposing) return;
      const shortcut = focusShortcutOf(key);
      const el = input.current;
      if (!shortcut || !el) return;
      const origin = (key.composedPath?.()[0] ?? key.target) as EventTarget | null;
      if (origin === el) {
        // Ctrl+K in the box keeps the browser from taking focus elsewhere; '/' is typed.
        if (shortcut === 'mod-k') {
          key.preventDefault();
          el.select();
        }
        return;
      }
      if (isEditableElement(origin)) return;
      key.preventDefault();
      el.focus();
      el.select();
    };
    target.addEventListener('keydown', onKeyDown);
    return () => target.removeEventListener('keydown', onKeyDown);
  }, [enabled, environment, input]);
}
