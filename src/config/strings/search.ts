/** Texts of the search widgets and catalogue views; the spec's English texts are the defaults. */
export const searchStrings = {
  /** product-rules §2: placeholder of the header search. */
  placeholder: 'Search services',
  /** Accessible name of the search box. */
  label: 'Search services',
  /** Clear button of the search box. */
  clear: 'Clear search',
  /** product-rules §8 empty state. */
  noResults: 'No results',
  /** product-rules §3: a model with no name. */
  unknownModel: 'Unknown Model',
  /** product-rules §2/§9 run-count badge; `{count}` is 'N', 'X.XK', 'X.XM' or 'X.XB'. */
  runs: '{count} runs',
  /** Announced while results load (skeleton rows are shown). */
  loadingResults: 'Loading results…',
  /** Announced result counts. */
  resultCountOne: '1 result',
  resultCountMany: '{count} results',
  resultCountTop: 'Top {shown} of {count} results',
  /** The last option of the results: opens the catalogue search with the text. */
  seeAll: 'All results for {query}',
  /** Hint beside the box, naming the keyboard shortcut. */
  shortcutHint: 'Press / or Ctrl K to search',
  /** Badge of a service on the demo runtime (its reason, the catalogue's demo_reason, on hover and focus). */
  demo: 'Demo',
  overview: {
    title: 'APIs & Services',
    intro: 'Every service on the platform: search, filter by what goes in and what comes out, and open one to see how to call it.',
    searchLabel: 'Search the catalogue',
    inputDomains: 'Input',
    outputDomains: 'Output',
    provider: 'Provider',
    anyProvider: 'All providers',
    sort: 'Sort by',
    sortRelevance: 'Relevance',
    sortRuns: 'Most runs',
    sortPublished: 'Newest',
    pageSize: 'Per page',
    pageSizeAll: 'All',
    resetFilters: 'Reset filters',
    results: '{count} services',
    resultsOne: '1 service',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {page} of {pages}',
    loading: 'Loading services…',
    empty: 'No results',
    categories: 'Categories',
    loadFailed: 'The catalogue could not be loaded.',
    retry: 'Try again',
    filters: 'Filters',
    pagination: 'Pages',
    showing: 'Showing {from}–{to} of {count}',
  },
  service: {
    notFoundTitle: 'Service not found',
    notFoundText: 'There is no service at this address. It may have been renamed or removed.',
    backToOverview: 'Browse all services',
    loading: 'Loading service…',
    tags: 'Models used',
    categories: 'Categories',
    provider: 'Provider',
    owner: 'Owner',
    runs: 'Runs',
    published: 'Published',
    howToCall: 'How to call it',
    noEndpoints: 'This service does not describe its endpoints yet.',
    /** Badge on a catalogue card and the service page of a service with nothing to run yet. */
    notRunnable: 'Cannot be run yet',
    /** Not in the spec: the badge of a container service whose deployment is starting. */
    starting: 'Starting',
    /** Not in the spec: the badge of a container service whose deployment failed or stopped. */
    notRunning: 'Not running',
    parameter: 'Parameter',
    type: 'Type',
    required: 'Required',
    defaultValue: 'Default',
    description: 'Description',
    yes: 'yes',
    no: 'no',
    unknown: 'unknown',
  },
  showcase: {
    title: 'Run AI models',
    chipsLabel: 'Categories',
    featuredLabel: 'Featured models',
    allModels: 'All models & Categories',
    empty: 'No featured models in this category yet.',
    loading: 'Loading featured models',
    chips: {
      images: 'Generate images',
      text: 'text',
      speech: 'speech',
      videos: 'videos',
      threeD: '3D',
      faceSwap: 'Swap faces',
      voiceCloning: 'Voice cloning',
      backgroundRemoval: 'Background removal',
    },
  },
};
