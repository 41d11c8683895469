// The search and catalogue constants of product-rules §9, each in exactly one place.

/** product-rules §9: fuse.js fuzzy threshold. */
export const FUZZY_THRESHOLD = 0.3;
/** product-rules §5/§9: fuzzy matches must cover at least 2 characters. */
export const MIN_MATCH_CHAR_LENGTH = 2;

/** product-rules §9: fuse.js key weights. */
export const KEY_WEIGHTS = {
  display_name: 0.75,
  used_models: 0.15,
  model_desc: 0.1,
  id: 0.05,
} as const;

/** product-rules §9: score boosts, subtracted from the fuse score (lower is better). */
export const SCORE_BOOSTS = {
  exactTitle: 0.6,
  titlePrefix: 0.35,
  titleSubstring: 0.15,
  exactId: 0.2,
  idPrefix: 0.1,
} as const;

/** product-rules §9: match tiers (lower ranks first). */
export const MATCH_TIERS = {
  exactTitleWord: 0,
  titleSubstring: 1,
  tag: 2,
  description: 3,
  fuzzyOnly: 4,
  unknown: 9,
} as const;
export type MatchTier = (typeof MATCH_TIERS)[keyof typeof MATCH_TIERS];

/** product-rules §9: sort options. */
export const SORT_OPTIONS = ['relevance', 'num_runs', 'published_at'] as const;
/** A catalogue list sort order, one of `SORT_OPTIONS`. */
export type SortOption = (typeof SORT_OPTIONS)[number];

/** product-rules §9: relevance without a query = 0.7 x log10(usages+1) + 0.3 x (10 x exp(-age days/365)). */
export const RELEVANCE_USAGE_WEIGHT = 0.7;
export const RELEVANCE_RECENCY_WEIGHT = 0.3;
export const RELEVANCE_RECENCY_SCALE = 10;
export const RELEVANCE_AGE_DAYS = 365;

/** product-rules §9 header search: debounce, top results, description cut. */
export const SEARCH_DEBOUNCE_MS = 300;
export const TOP_RESULTS = 4;
export const RESULT_DESCRIPTION_MAX = 80;
/** product-rules §2: skeleton rows while loading or searching. */
export const SKELETON_ROWS = 4;
/** product-rules §9: run-count abbreviations. */
export const RUN_ABBREVIATIONS = [
  { threshold: 1e9, suffix: 'B' },
  { threshold: 1e6, suffix: 'M' },
  { threshold: 1e3, suffix: 'K' },
] as const;

export const FEATURED_CARD_WIDTH = { desktop: 330, mobile: 200 } as const;

/** product-rules §9 tables: default page size 10, options 10, 25, 50, 100, All. */
export const PAGE_SIZES = [10, 25, 50, 100, 'all'] as const;
/** A catalogue list page size, one of `PAGE_SIZES`. */
export type PageSize = (typeof PAGE_SIZES)[number];
/** The catalogue list's page size before the visitor picks one. */
export const DEFAULT_PAGE_SIZE: PageSize = 10;
