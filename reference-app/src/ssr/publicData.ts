import { useLoaderData, type LoaderFunction, type Params } from 'react-router';
import type { CatalogueData } from '@limelight/widgets/catalogue';

// What the server hands a public page before it renders: the part of the catalogue (services and
// categories, as an anonymous visitor reads them) the page shows (ssr/pageData.ts), and the
// repository's star counter for the home page, which the server fetches and caches so the
// visitor's browser never calls GitHub. The pages' loaders return it: on the server from the
// request context (server/http/siteRenderer.ts), in the browser from the hydration data. A later
// client navigation gets the counter the page was served with, and no catalogue (the app's
// catalogue is loaded by then, and keeps itself fresh).

export interface RepoStats {
  stars: number;
  forks: number;
}

export interface PublicCatalogue extends CatalogueData {
  /** When the server read it (epoch ms): the relevance clock, the same on both sides. */
  loadedAt: number;
}

/**
 * What the overview's whole result set says, beside the one page of it the server sends: the
 * count, the pager and the provider filter show it until the whole catalogue is in.
 */
export interface ServedOverview {
  /** The view it answers (overviewParams of the URL's view). */
  search: string;
  page: number;
  pages: number;
  total: number;
  from: number;
  to: number;
  providers: string[];
}

export interface PublicData {
  /** The part of the catalogue the page shows (the whole one never goes into the page). */
  catalogue: PublicCatalogue | null;
  repo: RepoStats | null;
  overview?: ServedOverview;
}

/** Which part of the catalogue a page needs (ssr/pageData.ts cuts it). */
export type CataloguePart = 'home' | 'overview' | 'service';

/** What server/http/siteRenderer.ts hands the render: the whole public catalogue and the counter. */
export interface ServerContext {
  catalogue(): Promise<PublicCatalogue | null>;
  repoStats(): RepoStats;
  /** The platform's OpenAPI document (/v1/openapi.json), for the API reference at /docs/api. */
  openapi?(): Promise<unknown>;
}

/** The request context the route loaders get on the server (pageData.ts's serverContext). */
export interface RenderContext {
  pageData(part: CataloguePart, page: { url: URL; params: Params }): Promise<Pick<PublicData, 'catalogue' | 'overview'>>;
  repoStats(): RepoStats;
}

function isRenderContext(value: unknown): value is RenderContext {
  return typeof (value as Partial<RenderContext> | undefined)?.pageData === 'function';
}

/** The counter the page came with, for the pages the browser opens later. */
let servedRepo: RepoStats | null = null;

/** The loader of a page that needs the catalogue, the counter, or both. */
export function publicDataLoader(needs: { catalogue?: CataloguePart; repo?: boolean }): LoaderFunction {
  return async ({ context, request, params }): Promise<PublicData> => {
    if (!isRenderContext(context)) return { catalogue: null, repo: needs.repo ? servedRepo : null };
    const part = needs.catalogue ? await context.pageData(needs.catalogue, { url: new URL(request.url), params }) : { catalogue: null };
    return { ...part, repo: needs.repo ? context.repoStats() : null };
  };
}

/** The data the server rendered with (main.tsx, from the router's hydration data). */
export function servedPublicData(loaderData: Record<string, unknown>): PublicData {
  const all = Object.values(loaderData) as (Partial<PublicData> | null | undefined)[];
  const catalogue = all.find((d) => d?.catalogue)?.catalogue ?? null;
  const repo = all.find((d) => d?.repo)?.repo ?? null;
  servedRepo = repo ?? servedRepo;
  return { catalogue, repo };
}

/** The data of the page being rendered, or null for a page without a public-data loader. */
export function usePublicData(): PublicData | null {
  return (useLoaderData() as PublicData | null | undefined) ?? null;
}
