import { useCallback, useState } from 'react';

/** product-rules §2: the hero cards scroll to their section with a 300 px offset and expand it. */
export const SECTION_SCROLL_OFFSET = 300;

export function useRevealSection(initial: string[] = []) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(initial));

  const toggle = useCallback((id: string) => {
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  const reveal = useCallback((id: string) => {
    setExpanded((current) => new Set(current).add(id));
    const element = document.getElementById(id);
    if (!element) return;
    const top = element.getBoundingClientRect().top + window.scrollY - SECTION_SCROLL_OFFSET;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: Math.max(0, top), behavior: reduceMotion ? 'auto' : 'smooth' });
    element.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
  }, []);

  return { isExpanded: (id: string) => expanded.has(id), toggle, reveal };
}
