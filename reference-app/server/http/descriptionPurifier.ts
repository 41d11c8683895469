import createDOMPurify, { type DOMPurify } from 'dompurify';
import { log } from '../log';

// The DOM the server-rendered pages sanitise service descriptions with (siteRenderer.ts), so
// the HTML holds the same markup the browser's DOMPurify makes of it (src/catalogue/sanitize.ts:
// the same call, the same rules). jsdom, because it is the DOM DOMPurify itself is tested on in
// Node; lighter DOMs (happy-dom, linkedom) parse differently from browsers and are not safe
// under DOMPurify (cure53/DOMPurify's README, "Running DOMPurify on the server"). Loaded on the
// first server render only (about 0.3 s), then one window serves every page: DOMPurify makes a
// fresh document per call and keeps no state between them.

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
