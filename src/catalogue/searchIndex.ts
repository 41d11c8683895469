import Fuse from 'fuse.js/basic';
import type { ModelDescriptor } from '../api/types';
import { FUZZY_THRESHOLD } from './constants';
import { FUSE_KEYS, FUSE_OPTIONS, compareNames, rankBase, searchFields, type RankBase, type SearchFields } from './ranking';

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

const MAX_BITS = 32; // fuse.js Bitap works on 32-character chunks of the query.

/** Largest number of errors fuse.js accepts for a pattern of `length` characters. */
export function maxErrors(length: number, threshold = FUZZY_THRESHOLD): number {
  let errors = 0;
  while (errors + 1 < length && (errors + 1) / length <= threshold) errors += 1;
  return errors;
}

/** Start offsets of the chunks fuse.js splits a pattern into (see `patternChunks`). */
export function chunkStarts(length: number): number[] {
  if (length <= MAX_BITS) return [0];
  const starts: number[] = [];
  const remainder = length % MAX_BITS;
  for (let i = 0; i < length - remainder; i += MAX_BITS) starts.push(i);
  if (remainder) starts.push(length - MAX_BITS);
  return starts;
}

/** The chunks fuse.js splits a long pattern into (each searched on its own). */
export function patternChunks(pattern: string): string[] {
  return chunkStarts(pattern.length).map((start) => pattern.slice(start, start + Math.min(MAX_BITS, pattern.length)));
}

// Myers' pattern bitmasks per UTF-16 code unit. A query sets the entries of its chunk's
// characters, verifies every candidate, then clears them again.
const peq = new Int32Array(65536);

function setPattern(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) peq[pattern.charCodeAt(i)]! |= 1 << i;
}

function clearPattern(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) peq[pattern.charCodeAt(i)] = 0;
}

/** Myers over `text` for the pattern currently in `peq` (length m): is the distance <= k? */
function myersWithin(text: string, m: number, k: number): boolean {
  const high = 1 << (m - 1);
  let pv = m === MAX_BITS ? -1 : (1 << m) - 1;
  let mv = 0;
  let score = m;
  for (let j = 0, n = text.length; j < n; j++) {
    const eq = peq[text.charCodeAt(j)]!;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & high) score += 1;
    else if (mh & high) {
      score -= 1;
      if (score <= k) return true;
    }
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return false;
}

/**
 * Myers over `text` for the pattern in `peq` (length m): the smallest distance of any
 * substring, or, as soon as one within `k` is seen, that distance (the value is accepted then,
 * and its exact distance is not needed).
 */
function myersMin(text: string, m: number, k: number): number {
  const high = 1 << (m - 1);
  let pv = m === MAX_BITS ? -1 : (1 << m) - 1;
  let mv = 0;
  let score = m;
  let best = m;
  for (let j = 0, n = text.length; j < n; j++) {
    const eq = peq[text.charCodeAt(j)]!;
    const xv = eq | mv;
    const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
    let ph = mv | ~(xh | pv);
    let mh = pv & xh;
    if (ph & high) score += 1;
    else if (mh & high) {
      score -= 1;
      if (score < best) {
        best = score;
        if (best <= k) return best;
      }
    }
    ph <<= 1;
    mh <<= 1;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
  }
  return best;
}

/**
 * True when `text` holds a substring within `k` edits (insertions, deletions, substitutions)
 * of `pattern` (1 to 32 code units). Myers 1999, semi-global form.
 */
export function withinEdits(text: string, pattern: string, k: number): boolean {
  const m = pattern.length;
  if (m === 0 || m > MAX_BITS) throw new RangeError(`pattern length ${m} is outside 1..${MAX_BITS}`);
  if (k >= m) return true;
  setPattern(pattern);
  try {
    return myersWithin(text, m, k);
  } finally {
    clearPattern(pattern);
  }
}

/**
 * fuse.js's acceptance rule for one value (both lower-cased), with `ignoreLocation`, the
 * spec's threshold and a minimum match length of 2.
 */
export function fuseAccepts(text: string, pattern: string): boolean {
  if (pattern.length === 0) return false;
  if (pattern.length === 1) return text.includes(pattern + pattern);
  return patternChunks(pattern).some((chunk) => withinEdits(text, chunk, maxErrors(chunk.length)));
}

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

/** fuse.js's score for one model and query (1 when it does not match). */
export function fuseScore(model: ModelDescriptor, query: string): number {
  return new Fuse([model], FUSE_OPTIONS).search(query)[0]?.score ?? 1;
}

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
    // Built now, with the index (when the catalogue loads), so no keystroke pays for it.
    this.orders();
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

  private staticOrders: StaticOrders | undefined;

  /**
   * The catalogue pre-sorted for the orders' fixed parts (see `search.ts`): by runs (n_usages
   * desc, created_at newest, name) and by date (created_at newest, n_usages desc, name), with
   * each model's rank in both and dense group numbers of equal runs and equal dates.
   */
  orders(): StaticOrders {
    if (this.staticOrders) return this.staticOrders;
    const b = this.bases;
    const newer = (x: number, y: number) => (x === y ? 0 : x > y ? -1 : 1);
    const ids = Array.from(this.models, (_, i) => i);
    const byRuns = Int32Array.from(
      [...ids].sort(
        (i, j) => b[j]!.usages - b[i]!.usages || newer(b[i]!.created, b[j]!.created) || compareNames(b[i]!.name, i, b[j]!.name, j),
      ),
    );
    const byDate = Int32Array.from(
      [...ids].sort(
        (i, j) => newer(b[i]!.created, b[j]!.created) || b[j]!.usages - b[i]!.usages || compareNames(b[i]!.name, i, b[j]!.name, j),
      ),
    );
    const rank = (order: Int32Array) => {
      const out = new Int32Array(order.length);
      order.forEach((model, position) => (out[model] = position));
      return out;
    };
    const groups = (order: Int32Array, value: (i: number) => number) => {
      const out = new Int32Array(order.length);
      let group = 0;
      order.forEach((model, position) => {
        if (position > 0 && value(model) !== value(order[position - 1]!)) group += 1;
        out[model] = group;
      });
      return out;
    };
    this.staticOrders = {
      byRuns,
      runsRank: rank(byRuns),
      runsGroup: groups(byRuns, (i) => b[i]!.usages),
      byDate,
      dateRank: rank(byDate),
      dateGroup: groups(byDate, (i) => b[i]!.created),
    };
    return this.staticOrders;
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

/** Pre-sorted orders of a catalogue (positions are model indexes). */
export interface StaticOrders {
  byRuns: Int32Array;
  runsRank: Int32Array;
  runsGroup: Int32Array;
  byDate: Int32Array;
  dateRank: Int32Array;
  dateGroup: Int32Array;
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
