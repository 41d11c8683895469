import sanitizeHtml from 'sanitize-html';

// Service descriptions are HTML written by publishers. They are sanitised here, when stored, and
// again by the widgets when shown (DOMPurify), so neither a stored nor a displayed copy can run
// script. sanitize-html works without a DOM, which the server does not have.

const ALLOWED_TAGS = ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote'];

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
  }).trim();
}
