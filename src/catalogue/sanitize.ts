import DOMPurify from 'dompurify';
import { setPurifier } from './purifier';
import { stripHtml } from './text';

// Its own module so DOMPurify is bundled only with the pages that render description markup
// (the service page), not with every page that imports the catalogue (docs/deploy.md, "Lean
// first load").

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Sanitised HTML of a description for rendering as markup (the service page). Inline styles and
 * style elements are removed too, so the markup also passes a strict Content-Security-Policy.
 * Without a DOM it returns the escaped plain text.
 */
export function sanitizeDescriptionHtml(html: string | null | undefined): string {
  if (!html) return '';
  if (!DOMPurify.isSupported || typeof DOMPurify.sanitize !== 'function') return escapeHtml(stripHtml(html));
  // This page has DOMPurify now: htmlToText may use it too.
  setPurifier(DOMPurify);
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'img', 'video', 'audio', 'iframe'],
    FORBID_ATTR: ['style', 'class', 'id'],
    ALLOW_DATA_ATTR: false,
  });
}
