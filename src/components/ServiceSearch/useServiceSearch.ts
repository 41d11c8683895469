import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ModelCategory, ModelDescriptor } from '../../api/types';
import { formatString, type Strings } from '../../config/strings';
import { SEARCH_DEBOUNCE_MS, TOP_RESULTS } from '../../catalogue/constants';
import { DEFAULT_OVERVIEW_HREF, DEFAULT_SERVICE_HREF, overviewHref, serviceHref } from '../../catalogue/paths';
import { useStoreSelector } from '../../catalogue/react';
import { createSearchStore, ensureSearchEngine, type SearchContext, type SearchStore } from '../../catalogue/store';
import { createNavigationEvent, type NavigationEvent } from '../../internal/navigationEvent';
import { useControllableState } from '../../internal/useControllableState';

/** What a choice or a search would open; the callback may cancel it. */
export type ServiceSearchNavigationEvent = NavigationEvent;

/** Passed to `onSelect` with the chosen model. */
export interface ServiceSearchSelectEvent extends ServiceSearchNavigationEvent {
  readonly model: ModelDescriptor;
}

/** Passed to `onSearch` with the submitted query. */
export interface ServiceSearchSubmitEvent extends ServiceSearchNavigationEvent {
  readonly query: string;
}

export interface UseServiceSearchOptions {
  models: readonly ModelDescriptor[];
  categories: readonly ModelCategory[];
  /** The data is still loading (skeleton rows). */
  loading: boolean;
  /** Clock for relevance without a query (epoch ms). */
  now?: number | null;
  /** A search store to drive; the widget creates its own by default. */
  store?: SearchStore;
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  onSelect?: (model: ModelDescriptor, event: ServiceSearchSelectEvent) => boolean | void;
  onSearch?: (query: string, event: ServiceSearchSubmitEvent) => boolean | void;
  serviceHref?: string;
  overviewHref?: string;
  maxResults?: number;
  debounceMs?: number;
  navigate: (href: string) => void;
  strings: Strings['search'];
  /**
   * Called when the hook itself empties the text (clear, after a choice or a search), so the
   * input, which owns the typed text, follows. Typing never goes through here.
   */
  onTextReset?: () => void;
}

/**
 * The header search's behaviour without markup (product-rules §2 header search, §4): debounced query,
 * filters reset once on first use, top results, skeleton/empty states, announcements, choosing
 * a result and submitting a query.
 */
export function useServiceSearch(options: UseServiceSearchOptions) {
  const {
    models,
    categories,
    loading,
    now,
    maxResults = TOP_RESULTS,
    debounceMs = SEARCH_DEBOUNCE_MS,
    navigate,
    strings,
    onSelect,
    onSearch,
    serviceHref: serviceTemplate = DEFAULT_SERVICE_HREF,
    overviewHref: overviewTemplate = DEFAULT_OVERVIEW_HREF,
  } = options;
  const [ownStore] = useState(() =>
    // The engine (fuse.js and the index) loads with the first text, not with the page.
    createSearchStore({
      models: models as ModelDescriptor[],
      categories: categories as ModelCategory[],
      now: now ?? undefined,
      lazyEngine: true,
    }),
  );
  const store = options.store ?? ownStore;
  const [text, setText] = useControllableState(options.value, options.defaultValue ?? '', options.onValueChange);

  // Keep the store's data in step with the catalogue.
  useEffect(() => {
    const context = store.getSnapshot().context;
    if (context.models !== models || context.categories !== categories) {
      store.trigger.setData({ models: models as ModelDescriptor[], categories: categories as ModelCategory[], now: now ?? undefined });
    }
  }, [store, models, categories, now]);

  const query = useStoreSelector(store, (c: SearchContext) => c.filters.query);
  const isSearching = useStoreSelector(store, (c: SearchContext) => c.isSearching);
  const filtered = useStoreSelector(store, (c: SearchContext) => c.filtered_models);
  const engineReady = useStoreSelector(store, (c: SearchContext) => c.engine !== null);

  // product-rules §4: typing updates the store's query (trimmed) after the debounce. Driven by the text
  // itself, so a controlled `value` set from outside is searched the same way.
  useEffect(() => {
    const next = text.trim();
    if (next === store.getSnapshot().context.filters.query) {
      store.trigger.setSearching({ searching: false });
      return;
    }
    store.trigger.setSearching({ searching: true });
    // The first text (typed, or a controlled `value`) loads the engine; results wait for it.
    if (next) ensureSearchEngine(store);
    const timer = setTimeout(() => store.trigger.setQuery({ query: next }), debounceMs);
    return () => clearTimeout(timer);
  }, [text, store, debounceMs]);

  const applyNow = useCallback((next: string) => store.trigger.setQuery({ query: next }), [store]);

  // product-rules §4: all filters reset once, on the first focus, typing or Enter.
  const didReset = useRef(false);
  const resetOnce = useCallback(() => {
    if (didReset.current) return;
    didReset.current = true;
    store.trigger.reset();
  }, [store]);

  const changeText = useCallback(
    (next: string) => {
      resetOnce();
      setText(next);
    },
    [resetOnce, setText],
  );

  /** product-rules §4: clearing empties the text and the selection and resets all filters. */
  const { onTextReset } = options;
  const clear = useCallback(() => {
    setText('');
    onTextReset?.();
    store.trigger.reset();
  }, [setText, store, onTextReset]);

  /** After a choice or a search: text and selection are cleared (product-rules §2). */
  const clearAfterNavigation = useCallback(() => {
    setText('');
    onTextReset?.();
    applyNow('');
  }, [setText, applyNow, onTextReset]);

  const choose = useCallback(
    (model: ModelDescriptor, source: 'keyboard' | 'pointer') => {
      const href = serviceHref(model, serviceTemplate);
      const event: ServiceSearchSelectEvent = createNavigationEvent(href, source, { model });
      const result = onSelect?.(model, event);
      if (result !== false && !event.defaultPrevented) navigate(href);
      clearAfterNavigation();
    },
    [serviceTemplate, onSelect, navigate, clearAfterNavigation],
  );

  /** product-rules §2: Enter sets the search query and opens the catalogue with it. */
  /**
   * Searches the catalogue for the text. Pass the input's current value: the text state can lag
   * one keystroke behind a fast typist who presses Enter at once.
   */
  const submit = useCallback(
    (currentText: string = text) => {
      resetOnce();
      const q = currentText.trim();
      applyNow(q);
      const href = overviewHref(q, overviewTemplate);
      const event: ServiceSearchSubmitEvent = createNavigationEvent(href, 'keyboard', { query: q });
      const result = onSearch?.(q, event);
      if (result !== false && !event.defaultPrevented) navigate(href);
      clearAfterNavigation();
    },
    [resetOnce, text, applyNow, overviewTemplate, onSearch, navigate, clearAfterNavigation],
  );

  const trimmed = text.trim();
  const active = trimmed !== '';

  const pending = active && (isSearching || trimmed !== query);
  // The engine's chunk still loading counts as loading (product-rules §2: skeleton rows while loading).
  const showSkeleton = active && (loading || pending || !engineReady);
  const results = useMemo(
    () => (active && !showSkeleton && query !== '' ? filtered.slice(0, Math.max(0, maxResults)) : []),
    [active, showSkeleton, query, filtered, maxResults],
  );
  const total = active && !showSkeleton ? filtered.length : 0;
  const showEmpty = active && !showSkeleton && results.length === 0;

  let announcement = '';
  if (showSkeleton) announcement = strings.loadingResults;
  else if (showEmpty) announcement = strings.noResults;
  else if (results.length > 0) {
    announcement =
      total > results.length
        ? formatString(strings.resultCountTop, { shown: results.length, count: total })
        : results.length === 1
          ? strings.resultCountOne
          : formatString(strings.resultCountMany, { count: results.length });
  }

  return {
    store,
    text,
    changeText,
    clear,
    choose,
    submit,
    resetOnce,
    /** The applied (debounced, trimmed) query: what results and highlights are for. */
    query,
    results,
    total,
    /** The text is non-empty: a panel (results, skeletons or 'No results') is due. */
    active,
    showSkeleton,
    showEmpty,
    announcement,
  };
}

export type ServiceSearchState = ReturnType<typeof useServiceSearch>;
