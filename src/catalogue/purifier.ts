import type { DOMPurify } from 'dompurify';

// DOMPurify (about 10 kB compressed) loads on demand rather than with the first page: the
// header search's rows need it only once the search engine is in (engine.ts loads both), and
// the service page's markup imports it with its own chunk (sanitize.ts). Until it is here,
// `htmlToText` takes the DOM-free path (`stripHtml`), which is just as safe for text output
// (docs/deploy.md, "Lean first load").

let ready: DOMPurify | null = null;
let pending: Promise<DOMPurify | null> | undefined;

/** DOMPurify if it has loaded and this environment supports it (a browser DOM), else null. */
export function peekPurifier(): DOMPurify | null {
  return ready;
}

/** Hands over a DOMPurify the caller imported itself (e.g. the service page's chunk). */
export function setPurifier(purify: DOMPurify): void {
  if (purify.isSupported && typeof purify.sanitize === 'function') ready = purify;
}

/**
 * Loads DOMPurify once per page. Never rejects: a failed chunk load leaves the DOM-free path in
 * place and is retried on the next call.
 */
export function loadPurifier(): Promise<DOMPurify | null> {
  pending ??= import('dompurify').then(
    (module) => {
      setPurifier(module.default);
      return ready;
    },
    () => {
      pending = undefined;
      return null;
    },
  );
  return pending;
}
