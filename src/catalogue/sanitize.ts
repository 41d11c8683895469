import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { setPurifier } from './purifier';
import { stripHtml } from './text';

// Its own module so DOMPurify is bundled only with the pages that render description markup
// (the service page), not with every page that imports the catalogue (docs/deploy.md, "Lean
// first load").

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

let serverPurifier: Purifier | null = null;

/**
 * Where there is no browser DOM (a server rendering the page), a DOMPurify made over a server
 * DOM sanitises descriptions instead, with the same rules, so the server's HTML holds the same
 * markup the browser renders. Null (or one without a working DOM) goes back to plain text.
 */
export function setServerPurifier(purify: Purifier | null): void {
  serverPurifier = purify?.isSupported && typeof purify.sanitize === 'function' ? purify : null;
}

/**
 * Sanitised HTML of a description for rendering as markup (the service page). Inline styles and
 * style elements are removed too, so the markup also passes a strict Content-Security-Policy.
 * Without a DOM (neither the page's nor one set by `setServerPurifier`) it returns the escaped
 * plain text.
 */
export function sanitizeDescriptionHtml(html: string | null | undefined): string {
  if (!html) return '';
  const browser = DOMPurify.isSupported && typeof DOMPurify.sanitize === 'function';
  const purify = browser ? DOMPurify : serverPurifier;
  if (!purify) return escapeHtml(stripHtml(html));
  // This page has DOMPurify now: htmlToText may use it too.
  if (browser) setPurifier(DOMPurify);
  return purify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'img', 'video', 'audio', 'iframe'],
    FORBID_ATTR: ['style', 'class', 'id'],
    ALLOW_DATA_ATTR: false,
  });
}
