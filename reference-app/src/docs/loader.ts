import { redirect, type LoaderFunction } from 'react-router';
import type { DocsPageData } from './types';

// The docs pages' loader (routes.tsx). The pages are made on the server only (source.ts renders
// the Markdown there; the browser never loads the docs or a Markdown parser): on the server the
// request context answers; in the browser the hydration data does, and a navigation to a docs
// page that did not come from the server (the back button after leaving the docs by a client
// link) loads it as a document.

export interface DocsRenderContext {
  docs(slug: string | null): Promise<DocsPageData | null>;
}

function isDocsContext(value: unknown): value is DocsRenderContext {
  return typeof (value as Partial<DocsRenderContext> | undefined)?.docs === 'function';
}

/** `slug`: the route's fixed page (null for the index, 'api'), or undefined to read `:slug`. */
export function docsLoader(slug?: string | null): LoaderFunction {
  return async ({ context, params, request }): Promise<DocsPageData | null | Response> => {
    if (isDocsContext(context)) {
      const data = await context.docs(slug === undefined ? (params.slug ?? '') : slug);
      return data ?? redirect('/404');
    }
    const url = new URL(request.url);
    // The hash is not in the request's URL: compared without it, a page opened at an anchor is the same page.
    if (typeof window !== 'undefined' && `${window.location.pathname}${window.location.search}` !== `${url.pathname}${url.search}`) {
      window.location.assign(url.href);
      // The document load replaces this page; the router waits for it.
      return new Promise<never>(() => {});
    }
    // The server could not render this page (it logged why): the page says so.
    return null;
  };
}
