import type { Params } from 'react-router';
import { findServiceByPath, resolveCategories, searchModels } from '@limelight/widgets/catalogue';
import { defaultStrings } from '@limelight/widgets/platform';
import { filtersOf, overviewParams, paginate, parseOverviewParams, providersOf, withoutDemos } from '../pages/catalogue/overviewUrl';
import { selectFeatured } from '../pages/home/featured';
import { INITIAL_CHIP, modelsForChip } from '../pages/home/showcaseChips';
import type { CataloguePart, PublicCatalogue, PublicData, RenderContext, ServerContext } from './publicData';

// The part of the catalogue a server-rendered page hands the browser (issue 39): what the page
// shows, not the whole catalogue, so the HTML stays small. The server renders with this part
// too, so the hydrating render sees exactly the same data. After hydration the page's
// useCatalogueData loads the whole catalogue as before. Server only (entry-server.tsx): it
// brings the search engine, which the browser's first chunk must not carry.

type PagePart = Pick<PublicData, 'catalogue' | 'overview'>;

/** Home: the services its showcase shows first (the initial chip), and every category (the chips map onto them). */
export function homePart(catalogue: PublicCatalogue): PagePart {
  const label = defaultStrings.search.showcase.chips[INITIAL_CHIP];
  const featured = new Set(selectFeatured(modelsForChip(catalogue.models, catalogue.categories, INITIAL_CHIP, label)));
  // The catalogue's own order: the showcase's ties keep it (featured.ts).
  return { catalogue: { ...catalogue, models: catalogue.models.filter((m) => featured.has(m)) } };
}

/** A service page: that service and the categories it names; none when it does not exist (404). */
export function servicePart(catalogue: PublicCatalogue, params: Params): PagePart {
  const segments = params.serviceId !== undefined ? [params.serviceId] : [params.owner ?? '', params.name ?? ''];
  const model = findServiceByPath(catalogue.models, segments);
  return {
    catalogue: {
      ...catalogue,
      models: model ? [model] : [],
      categories: model ? resolveCategories(model, catalogue.categories) : [],
    },
  };
}

/**
 * The overview: the page of results its URL asks for (in the order shown), every category (the
 * domain filters), and what the whole result set says (its count, the pager, the providers).
 */
export function overviewPart(catalogue: PublicCatalogue, url: URL): PagePart {
  const view = parseOverviewParams(url.searchParams);
  const results = searchModels(catalogue.models, catalogue.categories, filtersOf(view), { now: catalogue.loadedAt });
  const { items, page, pages, total, from, to } = paginate(withoutDemos(results, view), view.pageSize, view.page);
  return {
    catalogue: { ...catalogue, models: items },
    overview: { search: overviewParams(view).toString(), page, pages, total, from, to, providers: providersOf(catalogue.models) },
  };
}

const PARTS: Record<CataloguePart, (catalogue: PublicCatalogue, page: { url: URL; params: Params }) => PagePart> = {
  home: (catalogue) => homePart(catalogue),
  service: (catalogue, { params }) => servicePart(catalogue, params),
  overview: (catalogue, { url }) => overviewPart(catalogue, url),
};

/** The loaders' context on the server: the siteRenderer's catalogue, cut to the page's part. */
export function serverContext(context: ServerContext): RenderContext {
  return {
    repoStats: () => context.repoStats(),
    async pageData(part, page) {
      const catalogue = await context.catalogue();
      return catalogue ? PARTS[part](catalogue, page) : { catalogue: null };
    },
  };
}
