import type { searchModels } from './search';

/** The search function (product-rules §5 rules over a bigram index and fuse.js). */
export type SearchEngine = typeof searchModels;

let pending: Promise<SearchEngine> | undefined;

/**
 * Loads the search engine as its own chunk, once per page. A search store requests it when it is
 * created, in parallel with the catalogue fetch; results cannot show before the data arrives
 * anyway, and the embed's first script stays small (fuse.js and the index are most of it).
 */
export function loadSearchEngine(): Promise<SearchEngine> {
  pending ??= import('./search').then((module) => module.searchModels);
  return pending;
}
