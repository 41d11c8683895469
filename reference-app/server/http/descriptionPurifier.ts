import createDOMPurify, { type DOMPurify } from 'dompurify';
import { log } from '../log';

// The DOM the server-rendered pages sanitise service descriptions with (siteRenderer.ts), so
// the HTML holds the same markup the browser's DOMPurify makes of it (src/catalogue/sanitize.ts:
// the same call, the same rules). jsdom, because it is the DOM DOMPurify itself is tested on in
// Node; lighter DOMs (happy-dom, linkedom) parse differently from browsers and are not safe
// under DOMPurify (cure53/DOMPurify's README, "Running DOMPurify on the server"). Not the
// sanitize-html the publishing routes clean descriptions with when stored (docs/publishing.md):
// its rules and serialisation differ from DOMPurify's, so the hydrating render would not match
// what the server sent, and this is the second, render-time pass over what the database holds.
// Loaded with the server build on the first page request, alongside the build's own module (its
// import took 1.5 to 2.7 s on a shared 2-core machine at load 10), then one window serves every page:
// DOMPurify makes a fresh document per call and keeps no state between them.

let loading: Promise<DOMPurify | undefined> | undefined;

async function load(): Promise<DOMPurify | undefined> {
  try {
    const { JSDOM } = await import('jsdom');
    const purify = createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis);
    if (!purify.isSupported) throw new Error('DOMPurify does not support this jsdom window');
    return purify;
  } catch (error) {
    log.error({ err: error }, 'no server DOM for descriptions: the server renders them as plain text');
    return undefined;
  }
}

/** DOMPurify over jsdom, made once; undefined if that fails (descriptions render as plain text then). */
export function descriptionPurifier(): Promise<DOMPurify | undefined> {
  loading ??= load();
  return loading;
}
