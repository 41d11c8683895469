/**
 * Copies text: the Clipboard API first; when it is missing or refuses (no permission, insecure
 * context, a sandboxed frame), the legacy method, silently (product-rules §8). Resolves whether either
 * worked; never rejects.
 */
export async function copyText(text: string, options: LegacyCopyOptions = {}): Promise<boolean> {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (clipboard && typeof clipboard.writeText === 'function') {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // Fall through to the legacy method: product-rules §8 wants no message for this.
    }
  }
  return legacyCopy(text, options);
}

export interface LegacyCopyOptions {
  /**
   * Where the temporary textarea goes. Inside a widget (and so inside its shadow root, where
   * focus and selection must stay) rather than on document.body.
   * @default document.body
   */
  container?: HTMLElement | null;
  /** Class that hides the textarea (static CSS: no style attribute is written). */
  className?: string;
}

/** The legacy copy method: select a temporary textarea and `document.execCommand('copy')`. */
export function legacyCopy(text: string, { container, className }: LegacyCopyOptions = {}): boolean {
  if (typeof document === 'undefined') return false;
  const doc = container?.ownerDocument ?? document;
  const parent = container ?? doc.body;
  const rootNode = parent.getRootNode() as Document | ShadowRoot;
  const previouslyFocused = (rootNode.activeElement ?? doc.activeElement) as HTMLElement | null;

  const textarea = doc.createElement('textarea');
  textarea.value = text;
  textarea.readOnly = true;
  textarea.tabIndex = -1;
  textarea.setAttribute('aria-hidden', 'true');
  if (className) textarea.className = className;
  parent.appendChild(textarea);
  let copied: boolean;
  try {
    textarea.focus({ preventScroll: true });
    textarea.select();
    textarea.setSelectionRange(0, text.length);
    copied = doc.execCommand('copy');
  } catch {
    copied = false;
  } finally {
    textarea.remove();
    previouslyFocused?.focus?.({ preventScroll: true });
  }
  return copied;
}
