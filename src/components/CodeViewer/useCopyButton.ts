import { useCallback, useEffect, useRef, useState } from 'react';
import { copyText } from '../../code/clipboard';
import { COPY_CONFIRMATION_MS } from '../../code/constants';

export type CopyState = 'idle' | 'copied';

export interface UseCopyButtonOptions {
  /** Text to copy. */
  text: string;
  /** Where the legacy method's temporary textarea goes (inside the widget). */
  container?: () => HTMLElement | null;
  /** Class that hides that textarea. */
  bufferClassName?: string;
  /** Called after a successful copy. */
  onCopy?: (text: string) => void;
  /** product-rules §9: 2000 ms. */
  confirmationMs?: number;
}

/**
 * Copy button logic: Clipboard API, silently the legacy method when it fails (product-rules §8), then
 * 'copied' for 2 seconds (product-rules §4). A second click restarts the 2 seconds.
 */
export function useCopyButton({ text, container, bufferClassName, onCopy, confirmationMs = COPY_CONFIRMATION_MS }: UseCopyButtonOptions) {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const copy = useCallback(async () => {
    const ok = await copyText(text, { container: container?.(), className: bufferClassName });
    if (!ok || !mounted.current) return;
    onCopy?.(text);
    setState('copied');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (mounted.current) setState('idle');
    }, confirmationMs);
  }, [text, container, bufferClassName, onCopy, confirmationMs]);

  return { state, copy };
}
