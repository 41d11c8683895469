import type { ModelDescriptor } from '../api/types';
import { chunkStarts, clearPattern, MAX_BITS, maxErrors, myersMin, myersWithin, setPattern } from './fuseEmulation';
import { SORT_OPTIONS } from './constants';
import {
  compareBases,
  FUSE_KEYS,
  matchWalkFor,
  RANK_KEYS,
  rankBase,
  searchFields,
  type BaseRankKey,
  type RankBase,
  type SearchFields,
} from './ranking';

// Which models fuse.js matches, decided without running fuse.js over the catalogue.
//
// fuse.js scores every value of every model with a Bitap search; over 10,000 services that
// costs hundreds of milliseconds a keystroke. With `ignoreLocation`, fuse.js accepts a value
// exactly when, for some 32-character chunk of the lower-cased query, the value contains a
// substring within k edits of it, k being the largest error count whose score errors/length
// stays within the threshold (0.3). (A one-character query is the exception: with a minimum
// match length of 2, fuse.js accepts only a value holding that character twice in a row.)
// The equivalence tests check this rule against fuse.js on random strings and on whole
// catalogues.
//
// So a query runs in three cheap steps:
//   1. candidates from an inverted bigram index: by the q-gram lemma a match with k edits keeps
//      at least (m - 1) - 2k of the query's m - 1 bigram positions, so a value sharing fewer
//      cannot match;
//   2. acceptance: a verbatim occurrence, or Myers' bit-parallel edit distance (one pass, one
//      32-bit word per chunk, stopping as soon as the distance is within k);
//   3. ranking by the spec's tiers, run counts and dates. Only when two matches tie on all of
//      those does the order need fuse.js's score; that score is then computed by fuse.js itself
//      for those models alone.

/**
 * The values fuse.js reads for a model (same keys, same blank rules), lower-cased. The
 * description text comes from `fields`, computed once with the same function fuse.js's key uses.
 */
function searchableValues(model: ModelDescriptor, fields: SearchFields): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim() !== '') out.push(v.toLowerCase());
  };
  for (const key of FUSE_KEYS) {
    if (key.name === 'model_desc') {
      if (fields.description.trim() !== '') out.push(fields.description);
      continue;
    }
    const value: unknown = key.getFn(model);
    if (Array.isArray(value)) value.forEach(add);
    else add(value);
  }
  return out;
}

const bigramKey = (text: string, at: number) => text.charCodeAt(at) * 65536 + text.charCodeAt(at + 1);

/**
 * The search index of one catalogue: the lower-cased searchable values, the texts the tier and
 * boost rules read, and an inverted bigram index over every value.
 */
export class SearchIndex {
  readonly models: readonly ModelDescriptor[];
  /** Lower-cased title, id, tags and description per model, for tiers and boosts. */
  readonly fields: SearchFields[];
  /** Run count, date and name per model, for the orders. */
  readonly bases: RankBase[];
  private readonly valueText: string[] = [];
  private readonly valueModel: Int32Array;
  private readonly postings = new Map<number, Int32Array>();
  private readonly counts: Uint16Array;
  private readonly touched: Int32Array;
  private readonly orderCache = new Map<string, number[]>();

  constructor(models: readonly ModelDescriptor[]) {
    this.models = models;
    this.fields = models.map(searchFields);
    this.bases = models.map((model, i) => rankBase(model, this.fields[i]!));
    const owner: number[] = [];
    models.forEach((model, i) => {
      for (const text of searchableValues(model, this.fields[i]!)) {
        this.valueText.push(text);
        owner.push(i);
      }
    });
    this.valueModel = Int32Array.from(owner);
    this.counts = new Uint16Array(this.valueText.length);
    this.touched = new Int32Array(this.valueText.length);

    // Values are added in increasing order, so a list already holds the current value exactly
    // when its last entry is that value: no per-value set is needed to skip repeated bigrams.
    const lists = new Map<number, number[]>();
    this.valueText.forEach((text, value) => {
      for (let at = 0; at + 1 < text.length; at++) {
        const gram = bigramKey(text, at);
        const list = lists.get(gram);
        if (!list) lists.set(gram, [value]);
        else if (list[list.length - 1] !== value) list.push(value);
      }
    });
    for (const [gram, list] of lists) this.postings.set(gram, Int32Array.from(list));
    // Built now, with the index (when the catalogue loads), so no keystroke pays for them.
    for (const sort of SORT_OPTIONS) {
      const walk = matchWalkFor(sort);
      this.staticOrder(walk.order, walk.groupBy);
    }
  }

  /** Number of searchable values (for diagnostics and the benchmark). */
  get size(): number {
    return this.valueText.length;
  }

  /**
   * Positions of the models fuse.js would match for a trimmed, non-blank query, ascending,
   * limited to the models `allowed` marks (null allows all).
   */
  match(query: string, allowed: Uint8Array | null = null): number[] {
    const matched = this.matchMask(query, allowed);
    const out: number[] = [];
    for (let i = 0; i < matched.length; i++) if (matched[i]) out.push(i);
    return out;
  }

  /** Like `match`, as a per-model mask (1: matched). */
  matchMask(query: string, allowed: Uint8Array | null = null): Uint8Array {
    const pattern = query.toLowerCase();
    const matched = new Uint8Array(this.models.length);
    const owner = this.valueModel;
    const texts = this.valueText;

    if (pattern.length === 1) {
      const posting = this.postings.get(bigramKey(pattern + pattern, 0));
      if (posting) {
        for (let p = 0; p < posting.length; p++) {
          const model = owner[posting[p]!]!;
          if (!allowed || allowed[model] === 1) matched[model] = 1;
        }
      }
    } else {
      const counts = this.counts;
      const touched = this.touched;
      const starts = chunkStarts(pattern.length);
      // Chunks of a long query overlap. With shift = the distance between two chunk starts, a
      // value at distance d from one chunk is at least d - shift from the next (their overlap
      // is a suffix of the one and a prefix of the other), so exact distances of one chunk
      // rule values out for the next. -1: unknown.
      let previous: Int8Array | null = null;
      starts.forEach((start, c) => {
        const chunk = pattern.slice(start, start + Math.min(MAX_BITS, pattern.length));
        const m = chunk.length;
        const errors = maxErrors(m);
        const needed = m - 1 - 2 * errors;
        const shift = c === 0 ? 0 : start - starts[c - 1]!;
        const last = c === starts.length - 1;
        const bound: Int8Array | null = last ? null : new Int8Array(texts.length).fill(-1);
        const prior = previous;
        setPattern(chunk);
        const verify = (value: number) => {
          const model = owner[value]!;
          if (matched[model] !== 0 || (allowed && allowed[model] !== 1)) return;
          const known = prior ? prior[value]! : -1;
          if (known >= 0 && known - shift > errors) {
            if (bound) bound[value] = known - shift;
            return;
          }
          if (!bound) {
            if (myersWithin(texts[value]!, m, errors)) matched[model] = 1;
            return;
          }
          const distance = myersMin(texts[value]!, m, errors);
          bound[value] = distance;
          if (distance <= errors) matched[model] = 1;
        };
        if (needed < 1) {
          // Not reached with the spec's threshold; keeps a looser threshold correct.
          for (let value = 0; value < texts.length; value++) verify(value);
        } else {
          let touchedCount = 0;
          for (let at = 0; at + 1 < m; at++) {
            const posting = this.postings.get(bigramKey(chunk, at));
            if (!posting) continue;
            for (let p = 0, n = posting.length; p < n; p++) {
              const value = posting[p]!;
              if (counts[value]++ === 0) touched[touchedCount++] = value;
            }
          }
          // A two-character chunk allows no error: holding its one bigram is matching it.
          const exact = m === 2 && errors === 0 && !bound;
          for (let t = 0; t < touchedCount; t++) {
            const value = touched[t]!;
            if (exact) {
              const model = owner[value]!;
              if (!allowed || allowed[model] === 1) matched[model] = 1;
            } else if (counts[value]! >= needed) verify(value);
            counts[value] = 0;
          }
        }
        clearPattern(chunk);
        previous = bound;
      });
    }
    return matched;
  }

  private readonly staticOrders = new Map<string, StaticOrder>();

  /**
   * The catalogue sorted by rank keys known before any query (then name and position), with
   * dense group numbers of models equal on the first `groupBy` of those keys. The search walks
   * this order instead of sorting matches (see `search.ts`).
   */
  staticOrder(keys: readonly BaseRankKey[], groupBy = 0): StaticOrder {
    const cacheKey = `${keys.join(',')}|${groupBy}`;
    let cached = this.staticOrders.get(cacheKey);
    if (cached) return cached;
    const b = this.bases;
    const order = Int32Array.from(this.models, (_, i) => i).sort((i, j) => compareBases(keys, b[i]!, i, b[j]!, j));
    let group: Int32Array | null = null;
    if (groupBy > 0) {
      const values = keys.slice(0, groupBy).map((key) => RANK_KEYS[key].base);
      group = new Int32Array(order.length);
      let current = 0;
      order.forEach((model, position) => {
        const previous = position > 0 ? order[position - 1]! : -1;
        if (previous >= 0 && values.some((value) => value(b[model]!) !== value(b[previous]!))) current += 1;
        group![model] = current;
      });
    }
    cached = { order, group };
    this.staticOrders.set(cacheKey, cached);
    return cached;
  }

  /** Memoised query-less order for a sort and a clock value. */
  cachedOrder(key: string, compute: () => number[]): number[] {
    let order = this.orderCache.get(key);
    if (!order) {
      if (this.orderCache.size >= 8) this.orderCache.clear();
      order = compute();
      this.orderCache.set(key, order);
    }
    return order;
  }
}

/** A pre-sorted order of a catalogue (entries are model indexes) and its groups by model. */
export interface StaticOrder {
  order: Int32Array;
  /** Group number per model index; null when not grouped. */
  group: Int32Array | null;
}

const indexes = new WeakMap<readonly ModelDescriptor[], SearchIndex>();

/**
 * The search index of a catalogue, built on first use and kept as long as the array lives.
 * Catalogue arrays are treated as immutable: a new catalogue is a new array.
 */
export function getSearchIndex(models: readonly ModelDescriptor[]): SearchIndex {
  let index = indexes.get(models);
  if (!index) {
    index = new SearchIndex(models);
    indexes.set(models, index);
  }
  return index;
}
