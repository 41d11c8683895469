// When a page change keeps the scroll position and when it starts at the top:
// back and forward (and a reload) return to where the reader was; every other arrival (a link, a
// redirect, a URL opened in the tab) starts at the top.
//
// react-router's ScrollRestoration already starts links at the top and restores on back/forward,
// but it saves positions by location key, and the first location of EVERY document has the key
// 'default': a page opened by URL got the position saved for whichever page was opened before it.

/** The key ScrollRestoration saves the first location of a document under. */
export const FIRST_LOCATION_KEY = 'default';

/**
 * Whether the document's first location may restore a saved position, from how the browser loaded
 * the document (PerformanceNavigationTiming.type): a reload or a history step may; a URL opened
 * anew ('navigate', or unknown) starts at the top.
 */
export const restoresFirstLocation = (documentNavigation: string | undefined) =>
  documentNavigation === 'reload' || documentNavigation === 'back_forward';

/** The saved positions without the first location's when it must not be restored. */
export function positionsToKeep(saved: Record<string, number>, documentNavigation: string | undefined): Record<string, number> {
  if (restoresFirstLocation(documentNavigation)) return saved;
  const { [FIRST_LOCATION_KEY]: _forgotten, ...rest } = saved;
  return rest;
}
