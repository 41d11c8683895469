import { useLoaderData, type LoaderFunction } from 'react-router';
import type { CatalogueData } from '@limelight/widgets/catalogue';

// What the server hands a public page before it renders: the catalogue (services and categories,
// as an anonymous visitor reads them) for the pages that list or show services, and the
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

export interface PublicData {
  catalogue: PublicCatalogue | null;
  repo: RepoStats | null;
}

/** The server's side of the render: the request context handed to the route loaders. */
export interface RenderContext {
  catalogue(): Promise<PublicCatalogue | null>;
  repoStats(): RepoStats;
}

function isRenderContext(value: unknown): value is RenderContext {
  return typeof (value as Partial<RenderContext> | undefined)?.catalogue === 'function';
}

/** The counter the page came with, for the pages the browser opens later. */
let servedRepo: RepoStats | null = null;

/** The loader of a page that needs the catalogue, the counter, or both. */
export function publicDataLoader(needs: { catalogue?: boolean; repo?: boolean }): LoaderFunction {
  return async ({ context }): Promise<PublicData> => {
    if (!isRenderContext(context)) return { catalogue: null, repo: needs.repo ? servedRepo : null };
    return {
      catalogue: needs.catalogue ? await context.catalogue() : null,
      repo: needs.repo ? context.repoStats() : null,
    };
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
