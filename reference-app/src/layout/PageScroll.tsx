import { ScrollRestoration } from 'react-router';
import { positionsToKeep } from './scrollPolicy';

/** Where the scroll positions live in sessionStorage (named here so this module owns it). */
const STORAGE_KEY = 'lime-scroll-positions';

/**
 * Before the router reads the saved positions (on its first render), a document opened by URL
 * forgets the first location's stale one (scrollPolicy.ts), so it starts at the top.
 */
function forgetStaleFirstPosition() {
  try {
    const navigation = (performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>;
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positionsToKeep(saved, navigation)));
  } catch {
    // No sessionStorage (private mode, sandboxed frame): ScrollRestoration keeps nothing either.
  }
}
forgetStaleFirstPosition();

/** Scroll restoration of every layout: top on arrival, the saved position on back/forward. */
export function PageScroll() {
  return <ScrollRestoration storageKey={STORAGE_KEY} />;
}
