import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  PAGE_SIZES,
  SEARCH_DEBOUNCE_MS,
  SORT_OPTIONS,
  domainOptions,
  searchModels,
  type PageSize,
  type SortOption,
} from '@limelight/widgets/catalogue';
import { createSearchStore, useStoreSelector, type SearchContext } from '@limelight/widgets/headless/catalogue';
import { formatString, usePlatform } from '@limelight/widgets/platform';
import {
  DEFAULT_OVERVIEW_STATE,
  filtersOf,
  overviewParams,
  paginate,
  parseOverviewParams,
  providersOf,
  toggle,
  withoutDemos,
  type OverviewState,
} from './overviewUrl';
import { ServiceCard, providerLabel } from './ServiceCard';
import { usePublicData } from '../../ssr/publicData';
import { useCatalogueData } from './useCatalogueData';
import * as styles from './catalogue.css';

/**
 * The filter that leaves out the demos: the site's own text, not the widgets' strings table,
 * which every embedded widget carries whole (docs/embeds.md, "Sizes").
 */
const HIDE_DEMOS = 'Hide demos';

const sortLabel = (sort: SortOption, s: ReturnType<typeof usePlatform>['strings']['search']['overview']) =>
  sort === 'num_runs' ? s.sortRuns : sort === 'published_at' ? s.sortPublished : s.sortRelevance;

/**
 * /APIs/Overview: every service, with search, domain filters in display order, provider filter,
 * sort and page sizes; the whole view lives in the URL.
 */
export function OverviewView() {
  const { strings, brand } = usePlatform();
  const s = strings.search.overview;
  const data = useCatalogueData();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseOverviewParams(params), [params]);

  const update = (patch: Partial<OverviewState>, options: { replace?: boolean; keepPage?: boolean } = {}) => {
    const next = { ...view, ...(options.keepPage ? {} : { page: 1 }), ...patch };
    setParams(overviewParams(next), { replace: options.replace ?? false });
  };

  // One search store for this page: URL state in, filtered models out (product-rules §3, §4).
  // Made with the data already in hand, so the server-rendered page (and its hydration) lists the services.
  const [store] = useState(() =>
    createSearchStore({
      filters: filtersOf(view),
      engine: searchModels,
      models: data.models,
      categories: data.categories,
      now: data.loadedAt ?? undefined,
    }),
  );
  useEffect(() => {
    store.trigger.setData({ models: data.models, categories: data.categories, now: data.loadedAt ?? undefined });
  }, [store, data.models, data.categories, data.loadedAt]);
  useEffect(() => {
    store.trigger.setFilters({ filters: filtersOf(view) });
  }, [store, view]);
  const filtered = useStoreSelector(store, (c: SearchContext) => c.filtered_models);

  // The search box types freely; the URL follows after the debounce, replacing history.
  const [text, setText] = useState(view.query);
  const typed = useRef(view.query);
  useEffect(() => {
    if (view.query !== typed.current.trim()) {
      typed.current = view.query;
      setText(view.query);
    }
  }, [view.query]);
  useEffect(() => {
    if (text.trim() === view.query) return;
    const timer = setTimeout(() => update({ query: text.trim() }, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  const domains = useMemo(() => domainOptions(data.categories), [data.categories]);
  // A server-rendered overview comes with one page of results and what the whole set says
  // (ssr/pageData.ts): shown as served while the catalogue holds only that page and the view is
  // the one served, then from the whole catalogue the page loads after hydration.
  const served = usePublicData();
  const servedOverview = served?.overview;
  const showsServed =
    servedOverview !== undefined && served?.catalogue?.models === data.models && servedOverview.search === overviewParams(view).toString();
  const providers = useMemo(() => providersOf(data.models, servedOverview?.providers), [data.models, servedOverview]);
  const page = showsServed ? { ...servedOverview, items: data.models } : paginate(withoutDemos(filtered, view), view.pageSize, view.page);
  const hasFilters =
    view.query !== '' ||
    view.sort !== 'relevance' ||
    view.hideDemos ||
    view.inputDomains.length + view.outputDomains.length + view.providers.length > 0;
  const showPlaceholders = data.loading && data.models.length === 0;
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = view.inputDomains.length + view.outputDomains.length + view.providers.length + (view.hideDemos ? 1 : 0);

  useEffect(() => {
    document.title = `${s.title} · ${brand}`;
  }, [s.title, brand]);

  const domainGroup = (legend: string, values: string[], selected: string[], key: 'inputDomains' | 'outputDomains') => (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.chips}>
        {values.map((domain) => (
          <label key={domain} className={styles.chip}>
            <input
              className={styles.chipInput}
              type="checkbox"
              checked={selected.some((d) => d.toLowerCase() === domain.toLowerCase())}
              onChange={() => update({ [key]: toggle(selected, domain) })}
            />
            {domain}
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{s.title}</h1>
      <p className={styles.intro}>{s.intro}</p>
      <div className={styles.layout}>
        <button
          type="button"
          className={`${styles.textButton} ${styles.filtersToggle}`}
          aria-expanded={filtersOpen}
          aria-controls="catalogue-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {activeFilters > 0 ? `${s.filters} (${activeFilters})` : s.filters}
        </button>
        <section id="catalogue-filters" className={`${styles.filters} ${filtersOpen ? styles.filtersOpen : ''}`} aria-label={s.filters}>
          <label className={styles.label}>
            {s.searchLabel}
            <input
              className={styles.control}
              type="search"
              value={text}
              placeholder={strings.search.placeholder}
              onChange={(e) => {
                typed.current = e.target.value;
                setText(e.target.value);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') update({ query: text.trim() });
              }}
            />
          </label>
          {domainGroup(s.inputDomains, domains.input, view.inputDomains, 'inputDomains')}
          {domainGroup(s.outputDomains, domains.output, view.outputDomains, 'outputDomains')}
          <label className={styles.label}>
            {s.provider}
            <select
              className={styles.control}
              value={view.providers[0] ?? ''}
              onChange={(e) => update({ providers: e.target.value ? [e.target.value] : [] })}
            >
              <option value="">{s.anyProvider}</option>
              {providers.map((p) => (
                <option key={p} value={p}>
                  {providerLabel(p, brand)}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.chip}>
            <input
              className={styles.chipInput}
              type="checkbox"
              checked={view.hideDemos}
              onChange={(e) => update({ hideDemos: e.target.checked })}
            />
            {HIDE_DEMOS}
          </label>
          <button
            type="button"
            className={styles.textButton}
            disabled={!hasFilters}
            onClick={() => {
              typed.current = '';
              setText('');
              setParams(overviewParams({ ...DEFAULT_OVERVIEW_STATE, pageSize: view.pageSize }));
            }}
          >
            {s.resetFilters}
          </button>
        </section>

        <section aria-labelledby="overview-results">
          <div className={styles.toolbar}>
            <p id="overview-results" className={styles.count} role="status" aria-live="polite">
              {showPlaceholders ? s.loading : page.total === 1 ? s.resultsOne : formatString(s.results, { count: page.total })}
            </p>
            <div className={styles.toolbarControls}>
              <label className={styles.label}>
                {s.sort}
                <select className={styles.control} value={view.sort} onChange={(e) => update({ sort: e.target.value as SortOption })}>
                  {SORT_OPTIONS.map((option) => (
                    <option key={option} value={option}>
                      {sortLabel(option, s)}
                    </option>
                  ))}
                </select>
              </label>
              <label className={styles.label}>
                {s.pageSize}
                <select
                  className={styles.control}
                  value={String(view.pageSize)}
                  onChange={(e) => update({ pageSize: (e.target.value === 'all' ? 'all' : Number(e.target.value)) as PageSize })}
                >
                  {PAGE_SIZES.map((size) => (
                    <option key={size} value={String(size)}>
                      {size === 'all' ? s.pageSizeAll : size}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </div>

          {showPlaceholders ? (
            <ul className={styles.results} aria-hidden="true">
              {Array.from({ length: 6 }, (_, i) => (
                <li key={i} className={styles.placeholder} />
              ))}
            </ul>
          ) : page.total === 0 ? (
            <div className={styles.empty}>
              <p>{data.status === 'error' && data.models.length === 0 ? s.loadFailed : s.empty}</p>
              {data.status === 'error' && data.models.length === 0 ? (
                <button type="button" className={styles.textButton} onClick={() => void data.catalogue.refresh().catch(() => {})}>
                  {s.retry}
                </button>
              ) : null}
            </div>
          ) : (
            <ul className={styles.results}>
              {page.items.map((model) => (
                <li key={model.id}>
                  <ServiceCard model={model} categories={data.categories} brand={brand} />
                </li>
              ))}
            </ul>
          )}

          {page.pages > 1 ? (
            <nav className={styles.pager} aria-label={s.pagination}>
              <button
                type="button"
                className={styles.textButton}
                disabled={page.page <= 1}
                onClick={() => update({ page: page.page - 1 }, { keepPage: true })}
              >
                {s.previous}
              </button>
              <span>{formatString(s.page, { page: page.page, pages: page.pages })}</span>
              <button
                type="button"
                className={styles.textButton}
                disabled={page.page >= page.pages}
                onClick={() => update({ page: page.page + 1 }, { keepPage: true })}
              >
                {s.next}
              </button>
            </nav>
          ) : null}
        </section>
      </div>
    </div>
  );
}
