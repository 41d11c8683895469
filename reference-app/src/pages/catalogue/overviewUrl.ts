import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZES,
  SORT_OPTIONS,
  type PageSize,
  type SearchFilters,
  type SortOption,
} from '@limelight/widgets/catalogue';
import { MODEL_PROVIDERS, type ModelDescriptor } from '@limelight/widgets/api';

// The catalogue page keeps its whole view in the URL (q, sort, input, output, provider, plus
// size and page) so a view can be shared and the back button walks through it.

export interface OverviewState {
  query: string;
  sort: SortOption;
  inputDomains: string[];
  outputDomains: string[];
  providers: string[];
  /** Leaves out the services on the demo runtime (`demos=hide`). */
  hideDemos: boolean;
  pageSize: PageSize;
  /** 1-based. */
  page: number;
}

export const DEFAULT_OVERVIEW_STATE: OverviewState = {
  query: '',
  sort: 'relevance',
  inputDomains: [],
  outputDomains: [],
  providers: [],
  hideDemos: false,
  pageSize: DEFAULT_PAGE_SIZE,
  page: 1,
};

/** Comma lists and repeated parameters both read as lists; blanks and duplicates drop. */
function list(params: URLSearchParams, name: string): string[] {
  const out: string[] = [];
  for (const value of params.getAll(name)) {
    for (const part of value.split(',')) {
      const item = part.trim();
      if (item && !out.includes(item)) out.push(item);
    }
  }
  return out;
}

function pageSizeOf(raw: string | null): PageSize {
  if (raw === null) return DEFAULT_PAGE_SIZE;
  if (raw.toLowerCase() === 'all') return 'all';
  const n = Number(raw);
  return (PAGE_SIZES as readonly (number | string)[]).includes(n) ? (n as PageSize) : DEFAULT_PAGE_SIZE;
}

/** Reads the view from the URL's search parameters; anything malformed falls back to the default. */
export function parseOverviewParams(params: URLSearchParams): OverviewState {
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    query: (params.get('q') ?? '').trim(),
    sort: (SORT_OPTIONS as readonly string[]).includes(sort ?? '') ? (sort as SortOption) : 'relevance',
    inputDomains: list(params, 'input'),
    outputDomains: list(params, 'output'),
    providers: list(params, 'provider'),
    hideDemos: params.get('demos') === 'hide',
    pageSize: pageSizeOf(params.get('size')),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** Writes a view as search parameters, leaving defaults out so URLs stay short. */
export function overviewParams(state: OverviewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.query.trim()) params.set('q', state.query.trim());
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.inputDomains.length) params.set('input', state.inputDomains.join(','));
  if (state.outputDomains.length) params.set('output', state.outputDomains.join(','));
  if (state.providers.length) params.set('provider', state.providers.join(','));
  if (state.hideDemos) params.set('demos', 'hide');
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set('size', String(state.pageSize));
  if (state.page > 1) params.set('page', String(state.page));
  return params;
}

/** The search filters of a view. */
export function filtersOf(state: OverviewState): SearchFilters {
  return {
    query: state.query,
    sort: state.sort,
    inputDomains: state.inputDomains,
    outputDomains: state.outputDomains,
    providers: state.providers,
  };
}

/** The results a view shows: without the demos when it hides them (the catalogue's `demo`, set by the runtime). */
export function withoutDemos<T extends Pick<ModelDescriptor, 'demo'>>(
  models: readonly T[],
  state: Pick<OverviewState, 'hideDemos'>,
): readonly T[] {
  return state.hideDemos ? models.filter((model) => model.demo !== true) : models;
}

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
  /** 1-based index of the first item shown (0 when none). */
  from: number;
  to: number;
}

/** One page of a list; the page number is clamped into range. */
export function paginate<T>(items: readonly T[], pageSize: PageSize, page: number): Page<T> {
  const total = items.length;
  if (pageSize === 'all') return { items: [...items], page: 1, pages: 1, total, from: total ? 1 : 0, to: total };
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const start = (current - 1) * pageSize;
  const slice = items.slice(start, start + pageSize);
  return { items: slice, page: current, pages, total, from: slice.length ? start + 1 : 0, to: start + slice.length };
}

/** Toggles a value in a list (case-insensitive match), keeping order. */
export function toggle(values: readonly string[], value: string): string[] {
  const i = values.findIndex((v) => v.toLowerCase() === value.toLowerCase());
  return i === -1 ? [...values, value] : values.filter((_, j) => j !== i);
}

/** The providers the filter lists: the known ones, then the catalogue's own, in its order. */
export function providersOf(models: readonly Pick<ModelDescriptor, 'provider'>[], more: readonly string[] = []): string[] {
  const seen = new Set<string>([...MODEL_PROVIDERS, ...more]);
  for (const m of models) if (m.provider) seen.add(m.provider);
  return [...seen];
}
