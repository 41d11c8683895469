import type { ModelCategory, ModelDescriptor } from '../api/types';
import { categoriesById, categoryIdsOf, categoryMatchesDomains, domainFilterSets } from './categories';
import { browseRankEntry, comparatorFor, matchTier, matchWalkFor, RANK_KEYS, searchRankEntry, type RankEntry } from './ranking';
import { normalizeFilters, type SearchFilters } from './filters';
import { fuseScore } from './fuseEmulation';
import { getSearchIndex, type SearchIndex } from './searchIndex';

/** Options of `searchModels`: the clock for the relevance of a search without a query. */
export interface SearchOptions {
  /**
   * Clock for the recency part of the query-less relevance score (product-rules §9), in epoch ms;
   * a search with a query never reads it.
   * @default Date.now()
   */
  now?: number;
}

/**
 * Per-model mask of the domain filters (product-rules §5), or null when none is active. Models without
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
 * Searches and orders a catalogue (product-rules §5, §9): domain filters, then fuse.js fuzzy matching of
 * the trimmed query (threshold 0.3, minimum match length 2, weights display_name 0.75,
 * used_models 0.15, model_desc 0.1, id 0.05), then the chosen sort. Without a query every
 * (filtered) model is returned, ordered by the query-less relevance score for 'relevance'.
 * The provider filter is accepted and ignored (product-rules §5).
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
  const index = getSearchIndex(models);
  const allowed = domainMask(models, categories, f);
  const query = f.query.trim();

  if (!query) {
    // The clock is read only here, for browsing: a search with a query stays pure, so a Server
    // Component prerenders it (docs/frameworks.md, "Next.js").
    const order = browseOrder(index, f.sort, options.now ?? Date.now());
    const out: ModelDescriptor[] = [];
    for (const i of order) if (!allowed || allowed[i]) out.push(models[i]!);
    return out;
  }

  const lower = query.toLowerCase();
  return orderMatches(index, index.matchMask(query, allowed), query, lower, f.sort);
}

const TIERS = 10;

/**
 * Orders matches exactly as `comparatorFor(sort, true)` would, in linear time, following the
 * walk `matchWalkFor(sort)` derives from the rank keys: the catalogue pre-sorted by the keys
 * known before the query (`SearchIndex.staticOrder`), each match dropped into its tier's bucket
 * within its group, buckets emptied in tier order at each group's end. Matches equal on every
 * key before the score end up next to each other and are re-sorted with the comparator itself,
 * which then reads the fuse.js score. The equivalence tests check the result against a plain
 * comparator sort.
 */
function orderMatches(
  index: SearchIndex,
  matched: Uint8Array,
  query: string,
  lower: string,
  sort: SearchFilters['sort'],
): ModelDescriptor[] {
  const { models, fields, bases } = index;
  const walk = matchWalkFor(sort);
  const { order, group: groupOf } = index.staticOrder(walk.order, walk.groupBy);
  const tieValues = walk.order.map((key) => RANK_KEYS[key].base);
  const tiers = new Uint8Array(models.length);
  const buckets: number[][] = Array.from({ length: TIERS }, () => []);
  const out: number[] = [];
  const flush = () => {
    for (const bucket of buckets) {
      for (let b = 0; b < bucket.length; b++) out.push(bucket[b]!);
      bucket.length = 0;
    }
  };
  let group = -1;
  for (let p = 0; p < order.length; p++) {
    const i = order[p]!;
    if (matched[i] !== 1) continue;
    if (groupOf && groupOf[i] !== group) {
      flush();
      group = groupOf[i]!;
    }
    const tier = matchTier(fields[i]!, lower);
    tiers[i] = tier;
    buckets[tier]!.push(i);
  }
  flush();

  const result: ModelDescriptor[] = new Array(out.length);
  const scoreOf = (entry: RankEntry) => fuseScore(entry.model, query);
  const compare = comparatorFor(sort, true);
  const tied = (a: number, b: number) => tiers[a] === tiers[b] && tieValues.every((value) => value(bases[a]!) === value(bases[b]!));
  let start = 0;
  for (let j = 1; j <= out.length; j++) {
    const a = out[start]!;
    if (j < out.length && tied(a, out[j]!)) continue;
    if (j - start === 1) result[start] = models[a]!;
    else {
      const run: RankEntry[] = [];
      for (let r = start; r < j; r++) {
        const i = out[r]!;
        run.push(searchRankEntry(models[i]!, i, bases[i]!, fields[i]!, lower, scoreOf));
      }
      run.sort(compare).forEach((entry, r) => (result[start + r] = entry.model));
    }
    start = j;
  }
  return result;
}
