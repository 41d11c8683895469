import type { ModelCategory, ModelDescriptor } from '../api/types';
import { categoriesById, categoryIdsOf, categoryMatchesDomains, domainFilterSets } from './categories';
import { browseRankEntry, comparatorFor, normalizeFilters, searchRankEntry, type RankEntry, type SearchFilters } from './ranking';
import { fuseScore, getSearchIndex, type SearchIndex } from './searchIndex';

export interface SearchOptions {
  /**
   * Clock for the recency part of the query-less relevance score (spec §9), in epoch ms.
   * @default Date.now()
   */
  now?: number;
}

/**
 * Per-model mask of the domain filters (spec §5), or null when none is active. Models without
 * a known category are hidden while a domain filter is active.
 */
function domainMask(models: readonly ModelDescriptor[], categories: readonly ModelCategory[], filters: SearchFilters) {
  const sets = domainFilterSets(filters);
  if (!sets) return null;
  const byId = categoriesById(categories);
  const mask = new Uint8Array(models.length);
  models.forEach((model, i) => {
    for (const id of categoryIdsOf(model)) {
      const category = byId.get(id);
      if (category && categoryMatchesDomains(category, sets)) {
        mask[i] = 1;
        return;
      }
    }
  });
  return mask;
}

function browseOrder(index: SearchIndex, sort: SearchFilters['sort'], now: number): number[] {
  return index.cachedOrder(`${sort}|${now}`, () => {
    const entries = index.models.map((model, i) => browseRankEntry(model, i, index.bases[i]!, now));
    return entries.sort(comparatorFor(sort, false)).map((e) => e.index);
  });
}

/**
 * Searches and orders a catalogue (spec §5, §9): domain filters, then fuse.js fuzzy matching of
 * the trimmed query (threshold 0.3, minimum match length 2, weights display_name 0.75,
 * used_models 0.15, model_desc 0.1, id 0.05), then the chosen sort. Without a query every
 * (filtered) model is returned, ordered by the query-less relevance score for 'relevance'.
 * The provider filter is accepted and ignored (spec §5).
 *
 * Fast on large catalogues: an index built once per models array decides which models fuse.js
 * would match, and fuse.js scores only models that tie on everything ranked before the score
 * (see `searchIndex.ts`); results are identical to running fuse.js over the catalogue.
 */
export function searchModels(
  models: readonly ModelDescriptor[],
  categories: readonly ModelCategory[],
  filters: Partial<SearchFilters> = {},
  options: SearchOptions = {},
): ModelDescriptor[] {
  if (models.length === 0) return [];
  const f = normalizeFilters(filters);
  const now = options.now ?? Date.now();
  const index = getSearchIndex(models);
  const allowed = domainMask(models, categories, f);
  const query = f.query.trim();

  if (!query) {
    const order = browseOrder(index, f.sort, now);
    const out: ModelDescriptor[] = [];
    for (const i of order) if (!allowed || allowed[i]) out.push(models[i]!);
    return out;
  }

  const lower = query.toLowerCase();
  const scoreOf = (entry: RankEntry) => fuseScore(entry.model, query);
  const entries: RankEntry[] = index
    .match(query, allowed)
    .map((i) => searchRankEntry(models[i]!, i, index.bases[i]!, index.fields[i]!, lower, scoreOf));
  return entries.sort(comparatorFor(f.sort, true)).map((e) => e.model);
}
