// Catalogue and search stores (product-rules §3 "Search store", §4 "Catalogue and search data").
import { describe, expect, it, vi } from 'vitest';
import type { ModelCategory, ModelDescriptor } from '../../../src/api/types';
import { createCatalogue, searchModels, type CatalogueData } from '../../../src/catalogue';
import {
  createSearchStore,
  createCatalogueStore,
  createMemoryCache,
  createStorageCache,
  ensureSearchEngine,
} from '../../../src/catalogue/store';
import { loadSearchEngine } from '../../../src/catalogue/engine';
import { fixtureCategories, fixtureModel, fixtureModels, FIXTURE_NOW } from '../../fixtures/catalogue';

const cached: CatalogueData = { models: [fixtureModel('whisper')], categories: fixtureCategories.slice(0, 2) };
const server: CatalogueData = { models: fixtureModels, categories: fixtureCategories };

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const silent = { error: vi.fn() };

describe('two-step loading (product-rules §4)', () => {
  it('shows cached data first, then replaces it with the server result', async () => {
    const answer = deferred<CatalogueData>();
    const cache = createMemoryCache(cached);
    const catalogue = createCatalogue({ load: () => answer.promise, cache, now: () => FIXTURE_NOW });
    const done = catalogue.load();
    let c = catalogue.store.getSnapshot().context;
    expect(c.status).toBe('loading');
    expect(c.source).toBe('cache');
    expect(c.models).toBe(cached.models);
    answer.resolve(server);
    await done;
    c = catalogue.store.getSnapshot().context;
    expect(c).toMatchObject({ status: 'ready', source: 'server', loadedAt: FIXTURE_NOW });
    expect(c.models).toBe(server.models);
    expect(c.categories).toBe(server.categories);
    expect(cache.read()).toEqual(server);
  });

  it('keeps the cached data when the server answers with no models', async () => {
    const cache = createMemoryCache(cached);
    const catalogue = createCatalogue({ load: async () => ({ models: [], categories: [] }), cache });
    await catalogue.load();
    const c = catalogue.store.getSnapshot().context;
    expect(c.status).toBe('ready');
    expect(c.source).toBe('cache');
    expect(c.models).toBe(cached.models);
    expect(c.categories).toBe(cached.categories);
    expect(cache.read()).toBe(cached);
  });

  it('starts empty without a cache', async () => {
    const answer = deferred<CatalogueData>();
    const catalogue = createCatalogue({ load: () => answer.promise });
    const done = catalogue.load();
    expect(catalogue.store.getSnapshot().context).toMatchObject({ status: 'loading', source: 'none', models: [] });
    answer.resolve(server);
    await done;
    expect(catalogue.store.getSnapshot().context.models).toHaveLength(fixtureModels.length);
  });

  it('logs and rethrows a failure, ends loading and keeps what is shown (product-rules §8)', async () => {
    const logger = { error: vi.fn() };
    const failure = new Error('Offline');
    const catalogue = createCatalogue({ load: () => Promise.reject(failure), cache: createMemoryCache(cached), logger });
    await expect(catalogue.load()).rejects.toBe(failure);
    const c = catalogue.store.getSnapshot().context;
    expect(c.status).toBe('error');
    expect(c.error).toBe(failure);
    expect(c.models).toBe(cached.models);
    expect(logger.error).toHaveBeenCalledWith(expect.any(String), failure);
  });

  it('fetches only once for any number of ensureLoaded calls (product-rules §4: first fetch once)', async () => {
    const load = vi.fn(async () => server);
    const catalogue = createCatalogue({ load });
    await Promise.all([catalogue.ensureLoaded(), catalogue.ensureLoaded()]);
    await catalogue.ensureLoaded();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('refresh clears the lists and reloads', async () => {
    let answer = deferred<CatalogueData>();
    const catalogue = createCatalogue({ load: () => answer.promise, logger: silent });
    const first = catalogue.load();
    answer.resolve(server);
    await first;
    answer = deferred<CatalogueData>();
    const again = catalogue.refresh();
    expect(catalogue.store.getSnapshot().context).toMatchObject({ status: 'loading', models: [], categories: [], source: 'none' });
    const fresh = { models: [fixtureModel('kokoro')], categories: fixtureCategories };
    answer.resolve(fresh);
    await again;
    expect(catalogue.store.getSnapshot().context.models).toEqual([fixtureModel('kokoro')]);
  });

  it('ignores the answer of a fetch that a refresh replaced', async () => {
    const answers = [deferred<CatalogueData>(), deferred<CatalogueData>()];
    let call = 0;
    const catalogue = createCatalogue({ load: () => answers[call++]!.promise, logger: silent });
    const stale = catalogue.load();
    const fresh = catalogue.refresh();
    answers[1]!.resolve({ models: [fixtureModel('kokoro')], categories: [] });
    await fresh;
    answers[0]!.resolve(server);
    await stale;
    expect(catalogue.store.getSnapshot().context.models.map((m) => m.id)).toEqual(['kokoro']);
  });

  it('transitions are pure: a late failure of a replaced fetch changes nothing', () => {
    const store = createCatalogueStore();
    store.trigger.loadStarted({ requestId: 1 });
    store.trigger.refreshStarted({ requestId: 2 });
    store.trigger.loadFailed({ requestId: 1, error: new Error('late') });
    expect(store.getSnapshot().context).toMatchObject({ status: 'loading', error: null, requestId: 2 });
  });
});

describe('storage cache', () => {
  function memoryStorage() {
    const map = new Map<string, string>();
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
  }

  it('round-trips the catalogue under its key', () => {
    const storage = memoryStorage();
    const cache = createStorageCache(storage, 'lime-catalogue');
    expect(cache.read()).toBeNull();
    cache.write(server);
    expect(cache.read()).toEqual(JSON.parse(JSON.stringify(server)));
  });

  it('treats corrupt, foreign or unavailable storage as empty', () => {
    const storage = memoryStorage();
    storage.map.set('k', '{not json');
    expect(createStorageCache(storage, 'k').read()).toBeNull();
    storage.map.set('k', '{"models": 3}');
    expect(createStorageCache(storage, 'k').read()).toBeNull();
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const cache = createStorageCache(broken, 'k');
    expect(cache.read()).toBeNull();
    expect(() => cache.write(server)).not.toThrow();
  });
});

describe('search store (product-rules §3, §4)', () => {
  const make = () => createSearchStore({ models: fixtureModels, categories: fixtureCategories, now: FIXTURE_NOW, engine: searchModels });
  const expected = (filters: object) => searchModels(fixtureModels, fixtureCategories, filters, { now: FIXTURE_NOW });

  it('starts with the reset filters and every model', () => {
    const c = make().getSnapshot().context;
    expect(c.filters).toEqual({ query: '', sort: 'relevance', inputDomains: [], outputDomains: [], providers: [] });
    expect(c.filtered_models).toEqual(expected({}));
    expect(c.isSearching).toBe(false);
  });

  it('stores the query trimmed and re-applies the filters', () => {
    const store = make();
    store.trigger.setSearching({ searching: true });
    store.trigger.setQuery({ query: '  whisper ' });
    const c = store.getSnapshot().context;
    expect(c.filters.query).toBe('whisper');
    expect(c.isSearching).toBe(false);
    expect(c.filtered_models).toEqual(expected({ query: 'whisper' }));
  });

  it('re-applies on every change of sort, domain filters and provider filters', () => {
    const store = make();
    store.trigger.setSort({ sort: 'num_runs' });
    expect(store.getSnapshot().context.filtered_models).toEqual(expected({ sort: 'num_runs' }));
    store.trigger.setInputDomains({ domains: ['IMAGE'] });
    expect(store.getSnapshot().context.filtered_models).toEqual(expected({ sort: 'num_runs', inputDomains: ['IMAGE'] }));
    store.trigger.setOutputDomains({ domains: ['VIDEO'] });
    const both = expected({ sort: 'num_runs', inputDomains: ['IMAGE'], outputDomains: ['VIDEO'] });
    expect(store.getSnapshot().context.filtered_models).toEqual(both);
    expect(both.map((m) => m.id)).toEqual(['stable-video-diffusion']);
    const before = store.getSnapshot().context.filtered_models;
    store.trigger.setProviders({ providers: ['limelight'] });
    expect(store.getSnapshot().context.filters.providers).toEqual(['limelight']);
    expect(store.getSnapshot().context.filtered_models).toEqual(before);
  });

  it('reset restores an empty query, relevance sort and no filters', () => {
    const store = make();
    store.trigger.setFilters({
      filters: { query: ' voice ', sort: 'published_at', inputDomains: ['TEXT'], outputDomains: ['AUDIO'], providers: ['replicate'] },
    });
    expect(store.getSnapshot().context.filters.query).toBe('voice');
    store.trigger.reset();
    expect(store.getSnapshot().context.filters).toEqual({
      query: '',
      sort: 'relevance',
      inputDomains: [],
      outputDomains: [],
      providers: [],
    });
    expect(store.getSnapshot().context.filtered_models).toEqual(expected({}));
  });

  it('without an engine, loads the engine chunk itself and applies the filters when it arrives', async () => {
    const store = createSearchStore({
      models: fixtureModels,
      categories: fixtureCategories,
      now: FIXTURE_NOW,
      filters: { query: 'kokoro' },
    });
    expect(store.getSnapshot().context.engine).toBeNull();
    expect(store.getSnapshot().context.filtered_models).toEqual([]);
    await vi.waitFor(() => expect(store.getSnapshot().context.engine).not.toBeNull());
    const eager = createSearchStore({
      models: fixtureModels,
      categories: fixtureCategories,
      now: FIXTURE_NOW,
      filters: { query: 'kokoro' },
      engine: searchModels,
    });
    expect(store.getSnapshot().context.filtered_models.map((m) => m.id)).toEqual(
      eager.getSnapshot().context.filtered_models.map((m) => m.id),
    );
    expect(store.getSnapshot().context.filtered_models.length).toBeGreaterThan(0);
  });

  it('with lazyEngine, loads no engine until ensureSearchEngine asks, then applies the filters', async () => {
    const store = createSearchStore({
      models: fixtureModels,
      categories: fixtureCategories,
      now: FIXTURE_NOW,
      filters: { query: 'kokoro' },
      lazyEngine: true,
    });
    // The page-wide engine is in (an earlier store loaded it); this store still has none.
    await loadSearchEngine();
    await Promise.resolve();
    expect(store.getSnapshot().context.engine).toBeNull();
    expect(store.getSnapshot().context.filtered_models).toEqual([]);
    ensureSearchEngine(store);
    await vi.waitFor(() => expect(store.getSnapshot().context.engine).not.toBeNull());
    expect(store.getSnapshot().context.filtered_models.map((m) => m.id)[0]).toBe('kokoro');
  });

  it('re-applies when the data changes', () => {
    const store = createSearchStore({ filters: { query: 'kokoro' }, now: FIXTURE_NOW, engine: searchModels });
    expect(store.getSnapshot().context.filtered_models).toEqual([]);
    store.trigger.setData({ models: fixtureModels, categories: fixtureCategories as ModelCategory[] });
    expect(store.getSnapshot().context.filtered_models.map((m: ModelDescriptor) => m.id)).toEqual(['kokoro']);
  });

  // Next's cacheComponents prerender rejects Date.now() in a Client Component's render, and
  // ServiceSearch makes its store in a useState initializer (useServiceSearch.ts).
  it('does not read the clock while it is made; reads it once, at the first filtering with the engine', () => {
    const clock = vi.spyOn(Date, 'now').mockReturnValue(FIXTURE_NOW);
    try {
      const store = createSearchStore({ models: fixtureModels, categories: fixtureCategories, lazyEngine: true });
      expect(clock).not.toHaveBeenCalled();
      expect(store.getSnapshot().context.now).toBeUndefined();
      store.trigger.setEngine({ engine: searchModels });
      expect(clock).toHaveBeenCalledTimes(1);
      expect(store.getSnapshot().context.now).toBe(FIXTURE_NOW);
      store.trigger.setQuery({ query: 'kokoro' });
      expect(clock).toHaveBeenCalledTimes(1);
      expect(store.getSnapshot().context.filtered_models.map((m: ModelDescriptor) => m.id)).toEqual(['kokoro']);
    } finally {
      clock.mockRestore();
    }
  });
});
