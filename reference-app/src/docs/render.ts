import { Marked, type Token, type Tokens } from 'marked';
import type { CodeLanguage } from '@limelight/widgets/code-viewer';
import { docHref, docOfFile, type DocEntry } from './manifest';
import type { DocBlock, DocHeading, RenderedDoc, SearchEntry } from './types';

// The repository's docs/*.md as site pages (docs/deploy.md, "The docs on the site"), on the
// server only: marked (GFM) turns the Markdown into HTML, the site's DOMPurify (the server's, over
// jsdom: server/http/descriptionPurifier.ts) sanitises it, links between docs become /docs/<slug>
// links, headings get anchors, and code blocks become blocks for the site's code viewer. The
// browser gets the result, never the Markdown or the parser.

/** Sanitises an HTML fragment (DOMPurify's `sanitize`). */
export type Sanitize = (html: string) => string;

/** What the search keeps of each section's text. */
const EXCERPT_CHARS = 400;

/**
 * The languages the code viewer highlights (product-rules §5); others show as plain text. Its
 * list (CODE_LANGUAGES) is not public, so this names each one against the public CodeLanguage
 * type: a language added to or dropped from the viewer fails the type check here.
 */
const VIEWER_LANGUAGES = new Set(
  Object.keys({
    json: true,
    javascript: true,
    typescript: true,
    python: true,
    html: true,
    css: true,
    scss: true,
    vue: true,
    markdown: true,
    yaml: true,
    xml: true,
    sql: true,
    bash: true,
    shell: true,
    text: true,
  } satisfies Record<CodeLanguage, true>),
);
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  sh: 'bash',
  console: 'bash',
  zsh: 'bash',
  js: 'javascript',
  mjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  yml: 'yaml',
  md: 'markdown',
  jsonc: 'json',
  json5: 'json',
};

export function viewerLanguage(info: string | undefined): string {
  const name = (info ?? '').trim().split(/\s+/)[0]!.toLowerCase();
  const language = LANGUAGE_ALIASES[name] ?? name;
  return VIEWER_LANGUAGES.has(language) ? language : 'text';
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A heading's anchor as GitHub makes it (lower case, punctuation dropped, spaces to dashes). */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Block tokens are separated by a space, inline ones run together. */
const separatorOf = (tokens: readonly Token[]) => (tokens.some((t) => t.type === 'paragraph' || t.type === 'list_item') ? ' ' : '');

/** marked's text tokens hold their text HTML-escaped; the search and the anchors want it plain. */
const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);

/** The plain text of tokens (a heading's, a paragraph's, a list's). */
function plainText(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  return unescapeHtml(rawText(tokens));
}

function rawText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      const nested = (token as { tokens?: Token[] }).tokens;
      if (nested?.length) return rawText(nested);
      if (token.type === 'list') return (token as Tokens.List).items.map((item) => rawText(item.tokens)).join(' ');
      if (token.type === 'table') {
        const table = token as Tokens.Table;
        return [...table.header, ...table.rows.flat()].map((cell) => rawText(cell.tokens)).join(' ');
      }
      if (token.type === 'code' || token.type === 'html' || token.type === 'space' || token.type === 'hr') return ' ';
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
    })
    .join(separatorOf(tokens))
    .replace(/\s+/g, ' ');
}

/**
 * Where a link in a doc goes on the site: another published doc becomes /docs/<slug>, an anchor
 * or an absolute URL stays, and a relative link to something the site does not publish (a source
 * file, an unpublished doc) becomes null: its text stays, without a link to nowhere.
 */
export function rewriteHref(href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('//')) return href;
  if (href.startsWith('/')) return href;
  const [target = '', hash] = href.split('#', 2);
  // Relative to docs/, as the files link each other on GitHub.
  const parts: string[] = ['docs'];
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  if (parts.length === 2 && parts[0] === 'docs') {
    const doc = docOfFile(parts[1]!);
    if (doc) return docHref(doc.slug, hash ? slugify(decodeURIComponent(hash)) : undefined);
  }
  return null;
}

function markdownParser() {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      link(href, title, text) {
        const to = rewriteHref(href ?? '');
        if (to === null) return text;
        const external = /^https?:/i.test(to);
        return `<a href="${escapeHtml(to)}"${title ? ` title="${escapeHtml(title)}"` : ''}${external ? ' rel="noopener noreferrer"' : ''}>${text}</a>`;
      },
    },
  });
  return marked;
}

/**
 * One doc, from its Markdown: the blocks the page renders, its headings with their anchors, and
 * a search entry per section. Every piece of HTML goes through `sanitize`; the heading elements
 * and their ids are made here, from the heading's slug (letters, digits and dashes only).
 */
export function renderDoc(markdown: string, entry: DocEntry, sanitize: Sanitize): RenderedDoc {
  const marked = markdownParser();
  const tokens = marked.lexer(markdown);
  const blocks: DocBlock[] = [];
  const headings: DocHeading[] = [];
  const search: SearchEntry[] = [];
  const used = new Map<string, number>();
  let pending: Token[] = [];
  let section: SearchEntry = { title: entry.title, page: entry.title, href: docHref(entry.slug), text: '' };

  const flush = () => {
    if (pending.length === 0) return;
    const list = Object.assign(pending, { links: tokens.links });
    const html = sanitize(marked.parser(list)).trim();
    if (html) {
      const last = blocks.at(-1);
      if (last?.kind === 'html') last.html += `\n${html}`;
      else blocks.push({ kind: 'html', html });
    }
    pending = [];
  };
  const addText = (text: string) => {
    if (section.text.length < EXCERPT_CHARS && text.trim()) section.text = `${section.text} ${text.trim()}`.trim().slice(0, EXCERPT_CHARS);
  };
  const closeSection = () => {
    if (section.text || section.title !== entry.title) search.push(section);
  };

  for (const token of tokens) {
    if (token.type === 'heading') {
      flush();
      const heading = token as Tokens.Heading;
      const text = plainText(heading.tokens).trim();
      const base = slugify(text) || 'section';
      const seen = used.get(base) ?? 0;
      used.set(base, seen + 1);
      const id = seen ? `${base}-${seen}` : base;
      const inner = sanitize(marked.parseInline(heading.text) as string);
      const level = Math.min(Math.max(heading.depth, 1), 6);
      // The anchor link says where it goes to a screen reader; the heading itself stays plain text.
      blocks.push({
        kind: 'html',
        html: `<h${level} id="${id}">${inner} <a class="doc-anchor" href="#${id}" aria-label="Link to ${escapeHtml(text)}">#</a></h${level}>`,
      });
      if (level === 2 || level === 3) headings.push({ level, text, id });
      if (level <= 3) {
        closeSection();
        section = {
          title: level === 1 ? entry.title : text,
          page: entry.title,
          href: docHref(entry.slug, level === 1 ? undefined : id),
          text: '',
        };
      }
    } else if (token.type === 'code') {
      flush();
      const code = token as Tokens.Code;
      blocks.push({ kind: 'code', code: code.text, language: viewerLanguage(code.lang) });
    } else if (token.type !== 'space') {
      pending.push(token);
      if (token.type !== 'html') addText(plainText([token]));
    }
  }
  flush();
  closeSection();
  return { slug: entry.slug, title: entry.title, description: entry.description, blocks, headings, search };
}

/** Without a sanitiser the server shows the Markdown as text: never unsanitised HTML. */
export const escapeOnly: Sanitize = (html) => escapeHtml(html.replace(/<[^>]*>/g, ''));
