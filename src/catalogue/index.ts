// @limelight/widgets/catalogue: search, catalogue stores, paths and display helpers for pages
// built from the catalogue. The engine's internals (ranking keys, the fuse.js emulation, the
// index's orders) are not part of it; their tests import the module files.
export {
  SORT_OPTIONS,
  SEARCH_DEBOUNCE_MS,
  TOP_RESULTS,
  FEATURED_LIMIT,
  FEATURED_DESCRIPTION_MAX,
  FEATURED_PLACEHOLDERS,
  FEATURED_CARD_WIDTH,
  MARQUEE_MIN_ITEMS,
  PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
} from './constants';
export type { SortOption, PageSize } from './constants';
export { DEFAULT_FILTERS, normalizeFilters } from './filters';
export type { SearchFilters } from './filters';
export { searchModels } from './search';
export type { SearchOptions } from './search';
export { getSearchIndex } from './searchIndex';
export type { SearchIndex } from './searchIndex';
export { stripHtml, htmlToText, truncate, descriptionPreview, displayName, abbreviateRuns, formatRuns, highlightSegments } from './text';
export type { TextSegment } from './text';
export { sanitizeDescriptionHtml } from './sanitize';
export {
  normalizeDomain,
  categoryIdsOf,
  categoriesById,
  resolveCategories,
  matchesDomainFilters,
  domainLabel,
  sortDomains,
  domainOptions,
} from './categories';
export type { DomainFilter } from './categories';
export {
  DEFAULT_SERVICE_HREF,
  DEFAULT_OVERVIEW_HREF,
  servicePathSegments,
  servicePath,
  serviceHref,
  overviewHref,
  findServiceByPath,
} from './paths';
export { selectFeatured, ownModels } from './featured';
export { FALLBACK_IMAGE, isPlaceholderImage, modelImage } from './fallbackImage';
export { loadSearchEngine } from './engine';
export type { SearchEngine } from './engine';
export {
  createCatalogueStore,
  createCatalogue,
  createMemoryCache,
  createStorageCache,
  createSearchStore,
  ensureSearchEngine,
} from './store';
export type {
  CatalogueData,
  CatalogueStatus,
  CatalogueContext,
  CatalogueStore,
  CatalogueCache,
  CatalogueLoader,
  CatalogueOptions,
  Catalogue,
  SearchContext,
  SearchStore,
  SearchStoreOptions,
} from './store';
export {
  useStoreSelector,
  createApiCatalogueLoader,
  getSharedCatalogue,
  CatalogueProvider,
  useCatalogue,
  useCatalogueState,
} from './react';
export type { CatalogueProviderProps } from './react';
