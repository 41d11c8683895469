import { buildApiReference, type OpenApiDocument } from './apiReference';
import {
  API_REFERENCE_DESCRIPTION,
  API_REFERENCE_SLUG,
  API_REFERENCE_TITLE,
  DOCS,
  DOCS_INDEX_DESCRIPTION,
  DOCS_INDEX_TITLE,
  docHref,
  docOfSlug,
} from './manifest';
import { escapeOnly, renderDoc, type Sanitize } from './render';
import type { ApiReference, DocsPageData, RenderedDoc, SearchEntry } from './types';

// The docs pages' data on the server (entry-server.tsx hands it to the loaders through the
// request context): the published docs/*.md (manifest.ts), read from the repository's files at
// build time (bundled into the server build, so the image needs no docs/ folder) and rendered
// once per process on the first docs request; the API reference from the platform's OpenAPI
// document, read from the server itself.

const files = import.meta.glob<string>('../../../docs/*.md', { query: '?raw', import: 'default' });

/** The Markdown of a published doc. */
export async function readDocFile(file: string): Promise<string> {
  const load = files[`../../../docs/${file}`];
  if (!load) throw new Error(`docs manifest: no file docs/${file}`);
  return load();
}

export interface DocsSourceOptions {
  /** The site's DOMPurify (server/http/descriptionPurifier.ts); without it docs render as text. */
  purifier?: { sanitize(html: string): string } | null;
  /** The platform's OpenAPI document (/v1/openapi.json). */
  openapi?: () => Promise<unknown>;
}

const rendered = new Map<object | null, Promise<RenderedDoc[]>>();
let reference: Promise<ApiReference | null> | undefined;

function renderAll(purifier: DocsSourceOptions['purifier']): Promise<RenderedDoc[]> {
  const key = purifier ?? null;
  let docs = rendered.get(key);
  if (!docs) {
    const sanitize: Sanitize = purifier ? (html) => purifier.sanitize(html) : escapeOnly;
    docs = Promise.all(DOCS.map(async (entry) => renderDoc(await readDocFile(entry.file), entry, sanitize)));
    rendered.set(key, docs);
    docs.catch(() => rendered.delete(key));
  }
  return docs;
}

function apiReference(openapi: DocsSourceOptions['openapi']): Promise<ApiReference | null> {
  if (!openapi) return Promise.resolve(null);
  // Kept once built: the routes, and so the document, are fixed for the life of the process.
  reference ??= openapi().then((doc) => buildApiReference(doc as OpenApiDocument));
  reference.catch(() => (reference = undefined));
  return reference.catch(() => null);
}

function apiSearch(ref: ApiReference | null): SearchEntry[] {
  if (!ref) return [];
  return ref.groups.flatMap((group) =>
    group.operations.map((op) => ({
      title: `${op.method} ${op.path}`,
      page: API_REFERENCE_TITLE,
      href: docHref(API_REFERENCE_SLUG, op.id),
      text: [op.summary, op.description].filter(Boolean).join(' ').slice(0, 400),
    })),
  );
}

/**
 * A docs page's data: `null` for the index, a guide's slug, or 'api'. Null when there is no
 * such page (the loader answers it with the site's 404).
 */
export async function docsPageData(slug: string | null, options: DocsSourceOptions): Promise<DocsPageData | null> {
  const doc = slug === null || slug === API_REFERENCE_SLUG ? undefined : docOfSlug(slug);
  if (slug !== null && slug !== API_REFERENCE_SLUG && !doc) return null;
  const [docs, ref] = await Promise.all([renderAll(options.purifier), apiReference(options.openapi)]);
  const nav = docs.map((d) => {
    const entry = docOfSlug(d.slug)!;
    const highlights = (entry.highlights ?? []).flatMap((text) => {
      const heading = d.headings.find((h) => h.text === text);
      return heading ? [{ text, href: docHref(d.slug, heading.id) }] : [];
    });
    return { slug: d.slug, title: d.title, description: d.description, highlights };
  });
  nav.push({ slug: API_REFERENCE_SLUG, title: API_REFERENCE_TITLE, description: API_REFERENCE_DESCRIPTION, highlights: [] });
  const search = [...docs.flatMap((d) => d.search), ...apiSearch(ref)];
  const common = { nav, search };
  if (slug === null) {
    return {
      ...common,
      meta: { title: DOCS_INDEX_TITLE, description: DOCS_INDEX_DESCRIPTION },
      page: { kind: 'index', quickstart: docs.find((d) => d.slug === 'quickstart') ?? null },
    };
  }
  if (slug === API_REFERENCE_SLUG) {
    return {
      ...common,
      meta: { title: API_REFERENCE_TITLE, description: API_REFERENCE_DESCRIPTION },
      page: { kind: 'api', reference: ref },
    };
  }
  const page = docs.find((d) => d.slug === slug)!;
  return { ...common, meta: { title: page.title, description: page.description }, page: { kind: 'doc', doc: page } };
}
