import { createContext, createElement, useContext, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { unwrap } from '../api/http';
import { createModelManagementClient, type ModelManagementClient } from '../api/modelManagement';
import { usePlatform } from '../config/PlatformProvider';
import { useApiClient } from '../config/useApiClient';
import { createCatalogue, createMemoryCache, type Catalogue, type CatalogueContext, type CatalogueLoader } from './store';

// React bindings of the catalogue: narrow selectors over the stores, and the catalogue a widget
// uses (from a provider, or one shared per API URL so every widget on a page fetches once).

interface ReadableStore<C> {
  getSnapshot(): { context: C };
  subscribe(observer: (snapshot: { context: C }) => void): { unsubscribe(): void };
}

/** Reads a narrow slice of a store's context; re-renders only when the slice changes. */
export function useStoreSelector<C, T>(
  store: ReadableStore<C>,
  selector: (context: C) => T,
  isEqual: (a: T, b: T) => boolean = Object.is,
): T {
  const last = useRef<{ value: T } | null>(null);
  const select = () => {
    const value = selector(store.getSnapshot().context);
    if (last.current && isEqual(last.current.value, value)) return last.current.value;
    last.current = { value };
    return value;
  };
  return useSyncExternalStore(
    (onChange) => {
      const subscription = store.subscribe(() => onChange());
      return () => subscription.unsubscribe();
    },
    select,
    select,
  );
}

function asArray<T>(value: unknown, what: string): T[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw new TypeError(`${what} must be a list, got ${typeof value}`);
  return value as T[];
}

/**
 * Loads descriptors and categories through the model-management client (product-rules §7); a failed
 * call rejects with its `ApiError`.
 */
export function createApiCatalogueLoader(client: Pick<ModelManagementClient, 'modelDescriptors' | 'modelCategories'>): CatalogueLoader {
  return async () => {
    const [models, categories] = await Promise.all([client.modelDescriptors(), client.modelCategories()]);
    return {
      models: asArray(unwrap(models), 'model_descriptors'),
      categories: asArray(unwrap(categories), 'model_categories'),
    };
  };
}

const shared = new Map<string, { catalogue: Catalogue; client: { current: ModelManagementClient } }>();

/**
 * The page-wide catalogue for an API URL, created on first use with an in-memory cache. The
 * client may change (a new token source after sign-in); the latest one serves the next fetch.
 */
export function getSharedCatalogue(apiUrl: string, client: ModelManagementClient): Catalogue {
  let entry = shared.get(apiUrl);
  if (!entry) {
    const latest = { current: client };
    const load: CatalogueLoader = () => createApiCatalogueLoader(latest.current)();
    entry = { catalogue: createCatalogue({ load, cache: createMemoryCache() }), client: latest };
    shared.set(apiUrl, entry);
  }
  entry.client.current = client;
  return entry.catalogue;
}

const CatalogueReactContext = createContext<Catalogue | null>(null);

/** Props of `CatalogueProvider`. */
export interface CatalogueProviderProps {
  /** The catalogue the widgets below use (e.g. one made with `createCatalogue`). */
  catalogue: Catalogue;
  children?: ReactNode;
}

/** Gives the widgets below a specific catalogue instead of the page-wide one. */
export function CatalogueProvider({ catalogue, children }: CatalogueProviderProps) {
  return createElement(CatalogueReactContext.Provider, { value: catalogue }, children);
}

/** The catalogue in use: the provider's, or the page-wide one for the platform's API URL. */
export function useCatalogue(): Catalogue {
  const provided = useContext(CatalogueReactContext);
  const { apiUrl } = usePlatform();
  const client = useApiClient(createModelManagementClient);
  return useMemo(() => provided ?? getSharedCatalogue(apiUrl, client), [provided, apiUrl, client]);
}

const sameArrayPair = (a: [unknown, unknown], b: [unknown, unknown]) => a[0] === b[0] && a[1] === b[1];

/** Models, categories and status of a catalogue, each re-rendering only when it changes. */
export function useCatalogueState(catalogue: Catalogue) {
  const [models, categories] = useStoreSelector(
    catalogue.store,
    (c: CatalogueContext) => [c.models, c.categories] as [CatalogueContext['models'], CatalogueContext['categories']],
    sameArrayPair,
  );
  const status = useStoreSelector(catalogue.store, (c: CatalogueContext) => c.status);
  const loadedAt = useStoreSelector(catalogue.store, (c: CatalogueContext) => c.loadedAt);
  return { models, categories, status, loadedAt, loading: status === 'idle' || status === 'loading' };
}
