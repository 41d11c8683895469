import { SORT_OPTIONS, type SortOption } from './constants';

// Filter state lives apart from the ranking rules: the search store needs these few lines at
// once, while ranking travels with the lazily loaded engine (see engine.ts).

/** Filter state of the search store (product-rules §3). */
export interface SearchFilters {
  /** Free text; counts only when non-blank after trimming (product-rules §5). */
  query: string;
  /** product-rules §9 sort options. */
  sort: SortOption;
  /** Input-domain filter; any of these (product-rules §5). */
  inputDomains: string[];
  /** Output-domain filter; any of these, satisfied by the same category as the input filter. */
  outputDomains: string[];
  /** Provider filter: stored, but without effect on results (product-rules §5). */
  providers: string[];
}

/** product-rules §4: reset restores an empty query, relevance sort and no filters. */
export const DEFAULT_FILTERS: Readonly<SearchFilters> = Object.freeze({
  query: '',
  sort: 'relevance',
  inputDomains: [],
  outputDomains: [],
  providers: [],
}) as Readonly<SearchFilters>;

/** The strings of a list, without blanks; anything else is an empty list. */
export const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];

/** Fills defaults and drops malformed values; unknown sorts fall back to relevance. */
export function normalizeFilters(filters: Partial<SearchFilters> = {}): SearchFilters {
  return {
    query: typeof filters.query === 'string' ? filters.query : '',
    sort: (SORT_OPTIONS as readonly string[]).includes(filters.sort as string) ? (filters.sort as SortOption) : 'relevance',
    inputDomains: stringList(filters.inputDomains),
    outputDomains: stringList(filters.outputDomains),
    providers: stringList(filters.providers),
  };
}
