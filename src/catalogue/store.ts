import { createStore } from '../internal/createStore';
import type { ModelCategory, ModelDescriptor } from '../api/types';
import { DEFAULT_FILTERS, normalizeFilters, type SearchFilters } from './filters';
import { loadSearchEngine, type SearchEngine } from './engine';

// Two stores (product-rules §3 "Search store", §4 "Catalogue and search data"). Both are @xstate/store
// stores: pure transitions, readable by any framework, and small enough for the embeds' size
// budget, which the full XState runtime is not.
//
// - The catalogue store holds the data: models and categories, loading status, two-step
//   loading (cached data first, then the server's if it has any), refresh.
// - A search store holds one view's filters and its filtered models, re-applied on every
//   change. The header search and the catalogue page each have their own, over shared data.

/** Models and categories as one unit of data. */
export interface CatalogueData {
  models: ModelDescriptor[];
  categories: ModelCategory[];
}

export type CatalogueStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface CatalogueContext extends CatalogueData {
  /** idle: never loaded; loading: a fetch runs; ready: it succeeded; error: it failed. */
  status: CatalogueStatus;
  /** Where the shown models come from. */
  source: 'none' | 'cache' | 'server';
  /** The last fetch failure, kept until the next fetch starts. */
  error: unknown;
  /** Id of the fetch whose answer is awaited; answers of older fetches are ignored. */
  requestId: number;
  /** Epoch ms of the last successful fetch (the clock for relevance), null before one. */
  loadedAt: number | null;
}

const emptyCatalogue: CatalogueContext = {
  models: [],
  categories: [],
  status: 'idle',
  source: 'none',
  error: null,
  requestId: 0,
  loadedAt: null,
};

/** The catalogue store's transitions; `loadCatalogue` drives them. */
export function createCatalogueStore(initial: Partial<CatalogueData> = {}) {
  return createStore({
    context: {
      ...emptyCatalogue,
      models: initial.models ?? [],
      categories: initial.categories ?? [],
      source: initial.models?.length ? 'cache' : 'none',
    } as CatalogueContext,
    on: {
      /** A fetch starts; cached data, if it has models, is shown meanwhile (product-rules §4 step 1). */
      loadStarted: (context, event: { requestId: number; cached?: CatalogueData | null }) => {
        const cached = event.cached?.models?.length ? event.cached : null;
        return {
          ...context,
          status: 'loading' as const,
          error: null,
          requestId: event.requestId,
          ...(cached ? { models: cached.models, categories: cached.categories ?? [], source: 'cache' as const } : {}),
        };
      },
      /** product-rules §4 step 2: the server's result replaces what is shown if it has data. */
      loadSucceeded: (context, event: { requestId: number; data: CatalogueData; at: number }) => {
        if (event.requestId !== context.requestId) return context;
        const hasModels = event.data.models.length > 0;
        return {
          ...context,
          status: 'ready' as const,
          loadedAt: event.at,
          models: hasModels ? event.data.models : context.models,
          categories: event.data.categories.length > 0 ? event.data.categories : context.categories,
          source: hasModels ? ('server' as const) : context.source,
        };
      },
      /** The fetch failed: loading ends, whatever is shown stays. */
      loadFailed: (context, event: { requestId: number; error: unknown }) =>
        event.requestId !== context.requestId ? context : { ...context, status: 'error' as const, error: event.error },
      /** product-rules §4: refreshing clears the lists, then reloads. */
      refreshStarted: (context, event: { requestId: number }) => ({
        ...context,
        models: [],
        categories: [],
        source: 'none' as const,
        status: 'loading' as const,
        error: null,
        requestId: event.requestId,
      }),
    },
  });
}

export type CatalogueStore = ReturnType<typeof createCatalogueStore>;

/** Reads and writes the cached catalogue (step 1 of the two-step loading). */
export interface CatalogueCache {
  read(): CatalogueData | null;
  write(data: CatalogueData): void;
}

/** A cache kept in memory for the page's lifetime. */
export function createMemoryCache(initial: CatalogueData | null = null): CatalogueCache {
  let data = initial;
  return {
    read: () => data,
    write: (next) => {
      data = next;
    },
  };
}

/**
 * A cache in Web Storage (e.g. `localStorage`) under one key; unreadable, corrupt or full
 * storage behaves as an empty cache.
 */
export function createStorageCache(storage: Pick<Storage, 'getItem' | 'setItem'>, key: string): CatalogueCache {
  return {
    read() {
      try {
        const raw = storage.getItem(key);
        if (!raw) return null;
        const data = JSON.parse(raw) as Partial<CatalogueData>;
        return Array.isArray(data.models)
          ? { models: data.models, categories: Array.isArray(data.categories) ? data.categories : [] }
          : null;
      } catch {
        return null;
      }
    },
    write(data) {
      try {
        storage.setItem(key, JSON.stringify(data));
      } catch {
        // Storage full or denied: the cache is an optimisation only.
      }
    },
  };
}

/** Fetches models and categories; rejects on failure. */
export type CatalogueLoader = () => Promise<CatalogueData>;

/** Options of `createCatalogue`: how to load the catalogue, where to cache it, and a logger. */
export interface CatalogueOptions {
  /** Fetches the server's data. */
  load: CatalogueLoader;
  /** Cached (or bundled) data shown before the server answers. */
  cache?: CatalogueCache;
  /** Where fetch failures are logged. @default console */
  logger?: Pick<Console, 'error'>;
  /** Clock. @default Date.now */
  now?: () => number;
}

/** A catalogue: its store plus the loading that drives it. */
export interface Catalogue {
  store: CatalogueStore;
  /**
   * product-rules §4 two-step load: shows cached data, fetches, replaces it if the server has data.
   * Failures are logged and rethrown.
   */
  load(): Promise<void>;
  /** product-rules §4: clears the lists and reloads from the server. */
  refresh(): Promise<void>;
  /** Starts the first load once; later calls share it (product-rules §4: the first fetch happens once). */
  ensureLoaded(): Promise<void>;
}

/** Creates a catalogue over a loader and an optional cache. */
export function createCatalogue(options: CatalogueOptions): Catalogue {
  const store = createCatalogueStore();
  const logger = options.logger ?? console;
  const now = options.now ?? Date.now;
  let nextId = 0;
  let first: Promise<void> | null = null;

  async function run(requestId: number): Promise<void> {
    try {
      const data = await options.load();
      store.trigger.loadSucceeded({ requestId, data, at: now() });
      if (data.models.length > 0) options.cache?.write(data);
    } catch (error) {
      logger.error('Could not load the service catalogue', error);
      store.trigger.loadFailed({ requestId, error });
      throw error;
    }
  }

  const catalogue: Catalogue = {
    store,
    load() {
      const requestId = ++nextId;
      store.trigger.loadStarted({ requestId, cached: options.cache?.read() ?? null });
      return run(requestId);
    },
    refresh() {
      const requestId = ++nextId;
      store.trigger.refreshStarted({ requestId });
      return run(requestId);
    },
    ensureLoaded() {
      first ??= catalogue.load();
      return first;
    },
  };
  return catalogue;
}

/** The search store's state: the catalogue, the filters, the filtered services and the search engine once loaded. */
export interface SearchContext extends CatalogueData {
  /** Current filters (product-rules §3). */
  filters: SearchFilters;
  /** The models the filters select, in display order (product-rules §3 filtered_models). */
  filtered_models: ModelDescriptor[];
  /** True while typed text waits for the debounce (product-rules §3 isSearching). */
  isSearching: boolean;
  /**
   * Clock for relevance without a query; unset, it is read at the first filtering with the
   * engine, never while the store is made (a component makes it in render, which React and
   * Next's prerender want pure).
   */
  now?: number;
  /** The search engine; null until its chunk has loaded (then the filters are applied). */
  engine: SearchEngine | null;
}

function apply(context: SearchContext): SearchContext {
  if (!context.engine) return { ...context, filtered_models: [] };
  // The clock is read once, at the first filtering, and then kept: relevance stays stable
  // between keystrokes and the engine's per-clock order cache is reused.
  const now = context.now ?? Date.now();
  return { ...context, now, filtered_models: context.engine(context.models, context.categories, context.filters, { now }) };
}

export interface SearchStoreOptions extends Partial<CatalogueData> {
  filters?: Partial<SearchFilters>;
  now?: number;
  /** The engine, when the caller has it already (no chunk to load). */
  engine?: SearchEngine;
  /**
   * Without `engine`: false loads the engine's chunk at once (a page that shows results straight
   * away); true waits for `ensureSearchEngine` (the header search calls it on its first text, so a page nobody searches never fetches fuse.js; docs/deploy.md, "Lean first load").
   * @default false
   */
  lazyEngine?: boolean;
}

/**
 * A search store (product-rules §3): filters, the filtered models, the isSearching flag. Every change of
 * query, sort, domain filters, provider filters or data re-applies the filters (product-rules §4).
 */
export function createSearchStore(initial: SearchStoreOptions = {}) {
  const store = createStore({
    context: apply({
      models: initial.models ?? [],
      categories: initial.categories ?? [],
      filters: normalizeFilters(initial.filters),
      filtered_models: [],
      isSearching: false,
      now: initial.now,
      engine: initial.engine ?? null,
    }),
    on: {
      /** The engine's chunk arrived: apply the current filters with it. */
      setEngine: (context, event: { engine: SearchEngine }) => apply({ ...context, engine: event.engine }),
      /** New data (e.g. the catalogue loaded); `now` moves the relevance clock. */
      setData: (context, event: Partial<CatalogueData> & { now?: number }) =>
        apply({
          ...context,
          models: event.models ?? context.models,
          categories: event.categories ?? context.categories,
          now: event.now ?? context.now,
        }),
      /** product-rules §4: the query is stored trimmed; searching ends. */
      setQuery: (context, event: { query: string }) =>
        apply({ ...context, isSearching: false, filters: { ...context.filters, query: event.query.trim() } }),
      setSort: (context, event: { sort: SearchFilters['sort'] }) =>
        apply({ ...context, filters: normalizeFilters({ ...context.filters, sort: event.sort }) }),
      setInputDomains: (context, event: { domains: string[] }) =>
        apply({ ...context, filters: { ...context.filters, inputDomains: [...event.domains] } }),
      setOutputDomains: (context, event: { domains: string[] }) =>
        apply({ ...context, filters: { ...context.filters, outputDomains: [...event.domains] } }),
      /** Stored, without effect on the results (product-rules §5). */
      setProviders: (context, event: { providers: string[] }) =>
        apply({ ...context, filters: { ...context.filters, providers: [...event.providers] } }),
      /** Replaces all filters at once (e.g. from a URL). */
      setFilters: (context, event: { filters: Partial<SearchFilters> }) => {
        const filters = normalizeFilters(event.filters);
        return apply({ ...context, filters: { ...filters, query: filters.query.trim() } });
      },
      /** product-rules §4: empty query, relevance sort, no filters. */
      reset: (context) => apply({ ...context, isSearching: false, filters: normalizeFilters(DEFAULT_FILTERS) }),
      setSearching: (context, event: { searching: boolean }) =>
        context.isSearching === event.searching ? context : { ...context, isSearching: event.searching },
    },
  });
  if (!initial.engine && !initial.lazyEngine) ensureSearchEngine(store);
  return store;
}

/**
 * Gives a store the engine if it has none yet: loads its chunk (once per page) and applies the
 * filters when it arrives. Safe to call on every focus; a store that has an engine is left alone.
 */
export function ensureSearchEngine(store: Pick<SearchStore, 'getSnapshot' | 'trigger'>): void {
  if (!store.getSnapshot().context.engine) void loadSearchEngine().then((engine) => store.trigger.setEngine({ engine }));
}

/** A catalogue search store (query, filters, results), as `createSearchStore` returns it. */
export type SearchStore = ReturnType<typeof createSearchStore>;
