import { loadPurifier } from './purifier';
import type { searchModels } from './search';

/** The search function (product-rules §5 rules over a bigram index and fuse.js). */
export type SearchEngine = typeof searchModels;

let pending: Promise<SearchEngine> | undefined;

/**
 * Loads the search engine as its own chunk, once per page. An eager search store requests it
 * when it is created, in parallel with the catalogue fetch; the header search's store on its first
 * text (store.ts, `lazyEngine`). Results cannot show before it arrives anyway, and the
 * first script stays small (fuse.js and the index are most of it).
 */
export function loadSearchEngine(): Promise<SearchEngine> {
  // DOMPurify comes with it: the result rows' descriptions are its first use (purifier.ts).
  pending ??= Promise.all([import('./search'), loadPurifier()]).then(([module]) => module.searchModels);
  return pending;
}
