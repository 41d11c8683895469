// @limelight/widgets/catalogue: the catalogue engine for pages built from it, on the server or
// in the browser: search, the catalogue and its provider, service paths and the display helpers
// the catalogue pages share. Stable. The search store behind a search view is experimental:
// `@limelight/widgets/headless/catalogue` (docs/api-surface.md). The engine's internals (ranking keys, the fuse.js emulation,
// the index's orders) are not part of it; their tests import the module files.
export { SORT_OPTIONS, SEARCH_DEBOUNCE_MS, PAGE_SIZES, DEFAULT_PAGE_SIZE } from './constants';
export type { SortOption, PageSize } from './constants';
export type { SearchFilters } from './filters';
export { searchModels } from './search';
export type { SearchOptions } from './search';
export { descriptionPreview, displayName, formatRuns } from './text';
export { sanitizeDescriptionHtml, setServerPurifier } from './sanitize';
export { normalizeDomain, categoryIdsOf, categoriesById, resolveCategories, sortDomains, domainOptions } from './categories';
export { servicePath, findServiceByPath } from './paths';
export { FALLBACK_IMAGE, isPlaceholderImage, modelImage } from './fallbackImage';
export { createCatalogue } from './store';
export type { Catalogue, CatalogueData, CatalogueOptions } from './store';
export { createApiCatalogueLoader, CatalogueProvider, useCatalogue, useCatalogueState } from './react';
export type { CatalogueProviderProps } from './react';
