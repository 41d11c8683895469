// @limelight/widgets/catalogue: the search engine, catalogue stores and formatting helpers.
export * from './constants';
export { DEFAULT_FILTERS, normalizeFilters } from './filters';
export type { SearchFilters } from './filters';
export {
  FUSE_KEYS,
  FUSE_OPTIONS,
  searchableDescription,
  searchFields,
  containsWholeWord,
  matchTier,
  scoreBoost,
  relevanceScore,
  createdTime,
  usageCount,
  rankBase,
  RankEntry,
  searchRankEntry,
  browseRankEntry,
  compareSearchRelevance,
  compareBrowseRelevance,
  comparatorFor,
} from './ranking';
export type { SearchFields, RankBase } from './ranking';
export { searchModels } from './search';
export type { SearchOptions } from './search';
export { SearchIndex, getSearchIndex, maxErrors, chunkStarts, patternChunks, withinEdits, fuseAccepts, fuseScore } from './searchIndex';
export {
  stripHtml,
  htmlToText,
  sanitizeDescriptionHtml,
  truncate,
  descriptionPreview,
  displayName,
  abbreviateRuns,
  formatRuns,
  highlightSegments,
} from './text';
export type { TextSegment } from './text';
export {
  normalizeDomain,
  categoryIdsOf,
  categoriesById,
  resolveCategories,
  domainFilterSets,
  categoryMatchesDomains,
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
export { createCatalogueStore, createCatalogue, createMemoryCache, createStorageCache, createSearchStore } from './store';
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
