import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { usePlatform } from '@limelight/widgets/platform';

/**
 * What a route tells the layout about its page. `title` names the page in the tab ("Pricing ·
 * Limelight"); `brandFirst` puts the brand first, as the home page does. Pages whose title depends
 * on their data (a service, the editor, the catalogue) set `document.title` themselves and leave
 * `title` out, so the layout does not overwrite them.
 */
export interface RouteHandle {
  title?: string;
  brandFirst?: boolean;
  /** The server renders this page (server/http/siteRenderer.ts); others are rendered in the browser. */
  ssr?: boolean;
  /** The page's source file (routes.tsx), for the server to link its CSS and scripts. */
  module?: string;
}

/** Sets `document.title` from the deepest matched route that names its page. */
export function useRouteTitle() {
  const matches = useMatches();
  const { brand } = usePlatform();
  const handle = matches
    .map((match) => match.handle as RouteHandle | undefined)
    .reverse()
    .find((h) => h?.title);
  const title = handle?.title;
  const brandFirst = handle?.brandFirst ?? false;

  useEffect(() => {
    if (title) document.title = brandFirst ? `${brand} · ${title}` : `${title} · ${brand}`;
  }, [title, brandFirst, brand]);
}
