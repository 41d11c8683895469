import type { ModelDescriptor } from '../api/types';
import { formatString } from '../config/strings';
import { MIN_MATCH_CHAR_LENGTH, RUN_ABBREVIATIONS } from './constants';
import { peekPurifier } from './purifier';

// Text shaping for descriptions, names and run counts (product-rules §2 header search, §3, §9).

const BLOCK_TAG = /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|blockquote|pre|hr)\b/gi;
const DROPPED_ELEMENTS = /<(script|style|template|noscript|iframe|object|svg|math|textarea)\b[\s\S]*?<\/\1\s*>/gi;
const COMMENT = /<!--[\s\S]*?-->/g;
const TAG = /<\/?[a-zA-Z][^>]*>/g;
const ENTITY = /&(#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos|nbsp);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function decodeEntity(_match: string, body: string): string {
  if (body[0] === '#') {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  }
  return NAMED[body] ?? '';
}

/**
 * Plain text of an HTML fragment without a DOM: drops scripts, styles and comments, strips tags,
 * decodes the common entities, collapses whitespace. Used for the search index, which must be
 * identical in Node and in browsers; its output is only ever matched, never rendered as HTML.
 */
export function stripHtml(html: string | null | undefined): string {
  if (!html) return '';
  if (!/[<&]/.test(html)) return collapse(html);
  return collapse(
    html.replace(DROPPED_ELEMENTS, ' ').replace(COMMENT, '').replace(BLOCK_TAG, ' $&').replace(TAG, '').replace(ENTITY, decodeEntity),
  );
}

/**
 * product-rules §2: a description "sanitised as HTML": DOMPurify removes anything executable, then the
 * remaining text content is taken, so the result is plain text React renders as text. DOMPurify
 * loads on demand (purifier.ts: the header search loads it with its engine); before it has, and
 * without a DOM (Node), this is `stripHtml`, which is as safe for text output.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  if (!/[<&]/.test(html)) return collapse(html);
  const purify = peekPurifier();
  if (!purify) return stripHtml(html);
  // Block boundaries become spaces so "<p>a</p><p>b</p>" reads "a b", as stripHtml does.
  const fragment = purify.sanitize(html.replace(BLOCK_TAG, ' $&'), { RETURN_DOM_FRAGMENT: true });
  return collapse(fragment.textContent ?? '');
}

/**
 * Cuts text to `max` characters (code points) and appends an ellipsis when it was longer
 * (product-rules §9: 80 in the header search, 60 in the featured marquee). Trailing spaces before the
 * ellipsis are dropped.
 */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, max).join('').trimEnd() + ellipsis;
}

/** A description as the widgets show it: sanitised to text, then cut (product-rules §2, §9). */
export function descriptionPreview(model: Pick<ModelDescriptor, 'model_desc'>, max: number): string {
  return truncate(htmlToText(model.model_desc), max);
}

/** product-rules §3: a model with no name shows 'Unknown Model' (from the strings table). */
export function displayName(model: Pick<ModelDescriptor, 'display_name'>, unknown = 'Unknown Model'): string {
  const name = typeof model.display_name === 'string' ? model.display_name.trim() : '';
  return name || unknown;
}

/**
 * The number part of a run count (product-rules §2, §9): 'N', 'X.XK', 'X.XM', 'X.XB' at 1e3, 1e6, 1e9.
 * A value that rounds up to 1000 of a unit is shown in the next unit ('1.0M', never '1000.0K').
 */
export function abbreviateRuns(count: number | null | undefined): string {
  const value = typeof count === 'number' && Number.isFinite(count) && count > 0 ? count : 0;
  for (let i = 0; i < RUN_ABBREVIATIONS.length; i++) {
    const { threshold, suffix } = RUN_ABBREVIATIONS[i]!;
    if (value >= threshold) {
      const scaled = (value / threshold).toFixed(1);
      const bigger = RUN_ABBREVIATIONS[i - 1];
      if (bigger && Number(scaled) >= 1000) return `${(value / bigger.threshold).toFixed(1)}${bigger.suffix}`;
      return `${scaled}${suffix}`;
    }
  }
  return String(Math.floor(value));
}

/** The run-count badge text: 'N runs', 'X.XK runs', ... (template from the strings table). */
export function formatRuns(count: number | null | undefined, template = '{count} runs'): string {
  return formatString(template, { count: abbreviateRuns(count) });
}

export interface TextSegment {
  text: string;
  /** True when this part matches the query (rendered as a highlight). */
  match: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Splits text into plain and matched parts for highlighting: case-insensitive occurrences of
 * the whole trimmed query and of each of its words of at least 2 characters (the minimum match
 * length, product-rules §9). Overlapping matches merge.
 */
export function highlightSegments(text: string, query: string): TextSegment[] {
  const trimmed = query.trim();
  if (!text || !trimmed) return text ? [{ text, match: false }] : [];
  const terms = Array.from(new Set([trimmed, ...trimmed.split(/\s+/)].filter((t) => t.length >= MIN_MATCH_CHAR_LENGTH))).sort(
    (a, b) => b.length - a.length,
  );
  if (terms.length === 0) return [{ text, match: false }];
  const pattern = new RegExp(terms.map(escapeRegExp).join('|'), 'giu');
  const ranges: Array<[number, number]> = [];
  for (const m of text.matchAll(pattern)) {
    const start = m.index;
    const end = start + m[0].length;
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  const segments: TextSegment[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}
