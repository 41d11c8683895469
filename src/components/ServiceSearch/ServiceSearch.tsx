import { useCombobox, type UseComboboxProps, type UseComboboxStateChangeOptions } from 'downshift';
import { Fragment, lazy, Suspense, useEffect, useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import type { ModelCategory, ModelDescriptor } from '../../api/types';
import { usePlatform } from '../../config/PlatformProvider';
import { useThemeClass } from '../../config/useThemeClass';
import { SKELETON_ROWS, RESULT_DESCRIPTION_MAX, TOP_RESULTS, SEARCH_DEBOUNCE_MS } from '../../catalogue/constants';
import { FALLBACK_IMAGE, modelImage } from '../../catalogue/fallbackImage';
import { useCatalogue, useCatalogueState } from '../../catalogue/react';
import type { Catalogue, SearchStore } from '../../catalogue/store';
import { descriptionPreview, displayName, formatRuns, highlightSegments } from '../../catalogue/text';
import * as styles from './ServiceSearch.css';
import { useFocusShortcut } from '../../internal/useFocusShortcut';
import { useServiceSearch, type ServiceSearchSelectEvent, type ServiceSearchSubmitEvent } from './useServiceSearch';

// floating-ui in its own chunk (see ResultsPositioner), requested when a visitor points at or
// focuses the field, before any results can open: pages that only show the search bar do not
// pay for it on first load (docs/deploy.md, "Lean first load").
const loadPositioner = () => import('./ResultsPositioner');
const ResultsPositioner = lazy(loadPositioner);
const preloadPositioner = () => void loadPositioner();

/** The object downshift uses to reach the document; pass one inside a shadow root. */
export type ServiceSearchEnvironment = NonNullable<UseComboboxProps<ModelDescriptor>['environment']>;

/** Props of `ServiceSearch`. */
export interface ServiceSearchProps {
  /**
   * Services to search. When given, nothing is fetched and `loading` tells whether more is
   * coming; otherwise the widget loads the catalogue of the platform's API once on mount.
   */
  models?: ModelDescriptor[];
  /** Categories of `models` (for domain filters of a shared `store`). @default [] */
  categories?: ModelCategory[];
  /** With `models`: the data is still loading, so skeleton rows show. @default false */
  loading?: boolean;
  /** The catalogue to load from instead of the page-wide one. */
  catalogue?: Catalogue;
  /** A search store to drive (e.g. shared with a results list); the widget makes its own by default. */
  store?: SearchStore;
  /** The search text (controlled). */
  value?: string;
  /** The initial search text (uncontrolled). @default '' */
  defaultValue?: string;
  /** Called whenever the search text changes. */
  onValueChange?: (value: string) => void;
  /**
   * Called when a result is chosen. Return false or call `event.preventDefault()` to stop the
   * navigation to `event.href`; the box clears itself either way.
   */
  onSelect?: (model: ModelDescriptor, event: ServiceSearchSelectEvent) => boolean | void;
  /**
   * Called when a query is submitted with Enter. Return false or call `event.preventDefault()`
   * to stop the navigation to the catalogue.
   */
  onSearch?: (query: string, event: ServiceSearchSubmitEvent) => boolean | void;
  /**
   * Address of a service page; `{path}` receives `name` or `owner/name`, URL-encoded.
   * @default '/APIs/service/{path}'
   */
  serviceHref?: string;
  /**
   * Address of the catalogue; the query is appended as `q` (or fills `{query}`).
   * @default '/APIs/Overview'
   */
  overviewHref?: string;
  /** Element the result list renders into (e.g. a shadow root's container). @default inline, inside the widget */
  portalContainer?: Element | DocumentFragment | null;
  /** downshift's environment; needed inside a shadow root. @default window */
  environment?: ServiceSearchEnvironment;
  /** Whether Ctrl/Cmd+K and '/' focus the box. @default true */
  shortcuts?: boolean;
  /** Results shown at most. @default 4 */
  maxResults?: number;
  /** Delay before typing updates the query, in ms. @default 300 */
  debounceMs?: number;
  /** Focus the box on mount. @default false */
  autoFocus?: boolean;
  /** Open the result list on mount (with a `defaultValue`, e.g. to show a state). @default false */
  defaultOpen?: boolean;
  /** Extra class on the root element. */
  className?: string;
}

const SearchIcon = () => (
  <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.38A8 8 0 1 1 10 2Zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12Z" />
  </svg>
);

const ClearIcon = () => (
  <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path fill="currentColor" d="m12 10.6 5.3-5.3 1.4 1.4-5.3 5.3 5.3 5.3-1.4 1.4-5.3-5.3-5.3 5.3-1.4-1.4 5.3-5.3-5.3-5.3 1.4-1.4z" />
  </svg>
);

function Highlighted({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightSegments(text, query).map((segment, i) =>
        segment.match ? (
          <mark key={i} className={styles.mark}>
            {segment.text}
          </mark>
        ) : (
          <Fragment key={i}>{segment.text}</Fragment>
        ),
      )}
    </>
  );
}

const showFallbackImage = (event: SyntheticEvent<HTMLImageElement>) => {
  const img = event.currentTarget;
  if (img.src !== FALLBACK_IMAGE) img.src = FALLBACK_IMAGE;
};

/** Loads the page-wide (or given) catalogue once on mount, unless data comes through props. */
function useCatalogueData(props: ServiceSearchProps) {
  const fromContext = useCatalogue();
  const catalogue = props.catalogue ?? fromContext;
  const state = useCatalogueState(catalogue);
  const external = props.models !== undefined;
  useEffect(() => {
    if (external) return;
    // product-rules §4/§8: the first fetch happens once; a failure shows no message, only a log line,
    // and ends loading.
    catalogue.ensureLoaded().catch((error: unknown) => console.error('Failed to initialize search data', error));
  }, [catalogue, external]);
  if (external) {
    return { models: props.models!, categories: props.categories ?? EMPTY, loading: props.loading ?? false, now: null };
  }
  return { models: state.models, categories: state.categories, loading: state.loading, now: state.loadedAt };
}

const EMPTY: ModelCategory[] = [];

/** The "see all results" option after the results: an item like them, so keys and ARIA treat it alike. */
const SEE_ALL = {} as ModelDescriptor;

/**
 * The header search (product-rules §2 "Header search bar", §4): a clearable combobox that shows the top
 * 4 services for the typed text, skeleton rows while loading or searching, and 'No results'.
 * Enter opens the catalogue with the query; choosing a result opens its service page.
 */
export function ServiceSearch(props: ServiceSearchProps) {
  const { navigate, strings } = usePlatform();
  const s = strings.search;
  const themeClass = useThemeClass();
  const data = useCatalogueData(props);
  const search = useServiceSearch({
    models: data.models,
    categories: data.categories,
    loading: data.loading,
    now: data.now,
    store: props.store,
    value: props.value,
    defaultValue: props.defaultValue,
    onValueChange: props.onValueChange,
    onSelect: props.onSelect,
    onSearch: props.onSearch,
    serviceHref: props.serviceHref,
    overviewHref: props.overviewHref,
    maxResults: props.maxResults ?? TOP_RESULTS,
    debounceMs: props.debounceMs ?? SEARCH_DEBOUNCE_MS,
    navigate,
    strings: s,
    onTextReset: () => resetInputRef.current?.(),
  });
  // downshift owns the typed text: it reports changes from an effect, so a controlled
  // inputValue would lag behind fast typing and lose keystrokes. Programmatic resets (clear,
  // after a choice or search) are pushed into it through this ref.
  const resetInputRef = useRef<(() => void) | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);
  useFocusShortcut(inputRef, props.shortcuts ?? true, props.environment as Parameters<typeof useFocusShortcut>[2]);

  const stateReducer = (
    state: { inputValue: string; selectedItem: ModelDescriptor | null },
    { type, changes }: UseComboboxStateChangeOptions<ModelDescriptor>,
  ) => {
    switch (type) {
      case useCombobox.stateChangeTypes.InputBlur:
        // Leaving the box never chooses the highlighted result.
        return { ...changes, selectedItem: state.selectedItem, inputValue: state.inputValue };
      case useCombobox.stateChangeTypes.ItemClick:
      case useCombobox.stateChangeTypes.InputKeyDownEnter:
        return { ...changes, inputValue: '', isOpen: false, highlightedIndex: -1 };
      case useCombobox.stateChangeTypes.InputChange:
        return { ...changes, isOpen: (changes.inputValue ?? '').trim() !== '' };
      case useCombobox.stateChangeTypes.InputClick:
        return { ...changes, isOpen: state.inputValue.trim() !== '' };
      default:
        return changes;
    }
  };

  const items = search.results.length ? [...search.results, SEE_ALL] : search.results;
  const { isOpen, highlightedIndex, getInputProps, getLabelProps, getMenuProps, getItemProps, setInputValue } =
    useCombobox<ModelDescriptor>({
      items,
      itemToString: (model) => (model ? displayName(model, s.unknownModel) : ''),
      itemToKey: (model) => model?.id,
      // Only a consumer's controlled `value` drives the input; otherwise downshift keeps it.
      ...(props.value !== undefined ? { inputValue: props.value } : {}),
      initialInputValue: props.defaultValue ?? '',
      selectedItem: null,
      initialIsOpen: props.defaultOpen ?? false,
      stateReducer,
      // An explicit undefined would replace downshift's default (window).
      ...(props.environment ? { environment: props.environment } : {}),
      onInputValueChange: ({ inputValue, type }) => {
        if (type === useCombobox.stateChangeTypes.InputChange) search.changeText(inputValue ?? '');
        // Escape on a closed list empties the box: a clear (product-rules §4).
        else if (type === useCombobox.stateChangeTypes.InputKeyDownEscape && !inputValue) search.clear();
      },
      onSelectedItemChange: ({ selectedItem, type }) => {
        if (selectedItem === SEE_ALL) search.submit();
        else if (selectedItem) search.choose(selectedItem, type === useCombobox.stateChangeTypes.ItemClick ? 'pointer' : 'keyboard');
      },
    });

  resetInputRef.current = () => setInputValue('');
  const open = isOpen && search.active;
  // The popup and the field as state, so the positioner re-runs when either mounts.
  const [reference, setReference] = useState<HTMLElement | null>(null);
  const [floating, setFloating] = useState<HTMLElement | null>(null);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    search.resetOnce();
    // With a highlighted result downshift chooses it; otherwise Enter searches (product-rules §2).
    if (isOpen && highlightedIndex >= 0 && search.results.length > 0) return;
    (event.nativeEvent as unknown as { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
    event.preventDefault();
    search.submit(event.currentTarget.value);
  };

  const onClear = () => {
    search.clear();
    inputRef.current?.focus();
  };

  const panel = (
    <div ref={setFloating} className={`${themeClass} ${styles.panel}`} data-state={open ? 'open' : 'closed'} hidden={!open}>
      <ul {...getMenuProps({ className: styles.list, 'aria-busy': open && search.showSkeleton ? true : undefined })}>
        {open &&
          !search.showSkeleton &&
          items.map((model, index) => {
            const itemProps = getItemProps({ item: model, index, className: styles.option });
            // A demo's reason describes its option and shows while it is highlighted (docs/jobs.md, metering).
            const demoId = model !== SEE_ALL && model.demo ? `${itemProps.id}-demo` : undefined;
            return (
              <li
                key={`${model.id}-${index}`}
                {...itemProps}
                aria-describedby={demoId}
                data-highlighted={highlightedIndex === index ? '' : undefined}
              >
                {model === SEE_ALL ? (
                  <span className={styles.seeAll}>{s.seeAll.replace('{query}', search.query)}</span>
                ) : (
                  <>
                    <img
                      className={styles.thumb}
                      src={modelImage(model)}
                      alt=""
                      width={40}
                      height={40}
                      loading="lazy"
                      decoding="async"
                      onError={showFallbackImage}
                    />
                    <span className={styles.text}>
                      <span className={styles.name}>
                        <Highlighted text={displayName(model, s.unknownModel)} query={search.query} />
                      </span>
                      <span className={styles.description}>
                        <Highlighted text={descriptionPreview(model, RESULT_DESCRIPTION_MAX)} query={search.query} />
                      </span>
                      {demoId ? (
                        <span id={demoId} className={styles.demoReason}>
                          {model.demo_reason}
                        </span>
                      ) : null}
                    </span>
                    <span className={styles.badges}>
                      {demoId ? (
                        <span className={styles.demoBadge} data-demo="">
                          {s.demo}
                        </span>
                      ) : null}
                      <span className={styles.badge}>{formatRuns(model.n_usages, s.runs)}</span>
                    </span>
                  </>
                )}
              </li>
            );
          })}
      </ul>
      {open && search.showSkeleton && (
        <div aria-hidden="true">
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <div key={i} className={styles.skeletonRow} data-skeleton="">
              <span className={styles.skeletonThumb} />
              <span className={styles.skeletonLines}>
                <span className={styles.skeletonShort} />
                <span className={styles.skeletonLong} />
              </span>
              <span className={styles.skeletonBlock} />
            </div>
          ))}
        </div>
      )}
      {open && search.showEmpty && <p className={styles.empty}>{s.noResults}</p>}
    </div>
  );

  const shortcuts = props.shortcuts ?? true;
  return (
    <div
      className={[themeClass, styles.root, props.className].filter(Boolean).join(' ')}
      data-state={open ? 'open' : 'closed'}
      data-loading={data.loading ? '' : undefined}
    >
      <label {...getLabelProps({ className: styles.visuallyHidden })}>{s.label}</label>
      <div className={styles.field} ref={setReference} onPointerEnter={preloadPositioner}>
        <SearchIcon />
        <input
          {...getInputProps({
            ref: inputRef,
            className: styles.input,
            placeholder: s.placeholder,
            type: 'text',
            autoComplete: 'off',
            autoCorrect: 'off',
            spellCheck: false,
            enterKeyHint: 'search',
            autoFocus: props.autoFocus,
            'aria-keyshortcuts': shortcuts ? 'Control+K Meta+K /' : undefined,
            onKeyDown,
            onFocus: () => {
              preloadPositioner();
              search.resetOnce();
            },
          })}
        />
        {search.text !== '' ? (
          <button type="button" className={styles.clear} aria-label={s.clear} onClick={onClear}>
            <ClearIcon />
          </button>
        ) : shortcuts ? (
          <kbd className={styles.kbd} aria-hidden="true" title={s.shortcutHint}>
            /
          </kbd>
        ) : null}
      </div>
      {props.portalContainer ? createPortal(panel, props.portalContainer) : panel}
      {open && reference && floating && (
        <Suspense fallback={null}>
          <ResultsPositioner reference={reference} floating={floating} />
        </Suspense>
      )}
      <div role="status" aria-live="polite" aria-atomic="true" className={styles.visuallyHidden}>
        {search.announcement}
      </div>
    </div>
  );
}
