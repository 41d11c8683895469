import type { HydrationState } from 'react-router';
import type { SiteConfig } from '../siteConfig';

// What the server puts in the page beside the rendered HTML: the site config (so the browser
// skips the /config.json round trip) and the router's data. A JSON data block, not a script that
// runs: the Content-Security-Policy allows no inline script (docs/security.md).

export const HYDRATION_ELEMENT_ID = 'limelight-hydration';

export interface HydrationPayload {
  config: SiteConfig;
  router: HydrationState;
}

/** JSON that is safe inside a <script> element: no `</script>`, no `<!--`, no line separators. */
export function serializeHydration(payload: HydrationPayload): string {
  return JSON.stringify(payload)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The server's payload in this page, or null when the page was not server-rendered. */
export function readHydration(doc: Document): HydrationPayload | null {
  const element = doc.getElementById(HYDRATION_ELEMENT_ID);
  if (!element?.textContent) return null;
  return JSON.parse(element.textContent) as HydrationPayload;
}
