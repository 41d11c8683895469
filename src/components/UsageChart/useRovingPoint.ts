import { useCallback, useRef, useState, type KeyboardEvent } from 'react';

/**
 * Keyboard access to a chart's points (roving tabindex): the chart is one tab stop; arrows,
 * Home and End move between points, focusing each, so its tooltip shows; Escape hides it.
 * Pointer hover shows the same tooltip.
 */
export function useRovingPoint(count: number) {
  const [active, setActive] = useState<number | null>(null);
  const [tabStop, setTabStop] = useState(0);
  const refs = useRef<Array<SVGGElement | null>>([]);

  const focus = useCallback((index: number) => {
    setTabStop(index);
    setActive(index);
    refs.current[index]?.focus();
  }, []);

  const onKeyDown = (index: number) => (event: KeyboardEvent) => {
    const last = count - 1;
    const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: last }[event.key];
    if (event.key === 'Escape') {
      setActive(null);
      return;
    }
    if (next === undefined) return;
    event.preventDefault();
    focus(Math.min(Math.max(next, 0), last));
  };

  return {
    active,
    pointProps: (index: number) => ({
      ref: (el: SVGGElement | null) => {
        refs.current[index] = el;
      },
      tabIndex: index === Math.min(tabStop, count - 1) ? 0 : -1,
      onKeyDown: onKeyDown(index),
      onFocus: () => {
        setTabStop(index);
        setActive(index);
      },
      onBlur: () => setActive((a) => (a === index ? null : a)),
      onPointerEnter: () => setActive(index),
      onPointerLeave: () => setActive((a) => (a === index ? null : a)),
      'data-active': active === index || undefined,
    }),
  };
}
