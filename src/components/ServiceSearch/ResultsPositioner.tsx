import { autoUpdate, flip, offset, size, useFloating } from '@floating-ui/react';
import { useLayoutEffect } from 'react';

export interface ResultsPositionerProps {
  /** The search field the results hang from. */
  reference: HTMLElement;
  /** The results popup. */
  floating: HTMLElement;
}

/**
 * Places the results popup with floating-ui: below the field, flipped above near the bottom of
 * the viewport, at least 320 px wide and never taller than the space left. Loaded as its own
 * chunk when the widget mounts; until it arrives the stylesheet places the popup under the field,
 * so the first script of the embed stays small and nothing waits on it.
 */
export default function ResultsPositioner({ reference, floating }: ResultsPositionerProps) {
  const { refs, x, y, strategy } = useFloating({
    placement: 'bottom-start',
    strategy: 'fixed',
    elements: { reference, floating },
    whileElementsMounted: autoUpdate,
    middleware: [
      offset(6),
      flip({ padding: 8 }),
      size({
        padding: 8,
        apply({ rects, elements, availableHeight, availableWidth }) {
          // CSSOM writes, allowed under a strict style-src (no style attributes in markup).
          elements.floating.style.width = `${Math.min(Math.max(rects.reference.width, 320), availableWidth)}px`;
          elements.floating.style.maxHeight = `${Math.max(160, availableHeight)}px`;
        },
      }),
    ],
  });
  useLayoutEffect(() => {
    const el = refs.floating.current;
    if (!el) return;
    el.style.position = strategy;
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
  }, [refs.floating, x, y, strategy]);
  return null;
}
