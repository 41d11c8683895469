import type { IFuseOptions } from 'fuse.js';
import type { ModelDescriptor } from '../api/types';
import {
  FUZZY_THRESHOLD,
  KEY_WEIGHTS,
  MATCH_TIERS,
  MIN_MATCH_CHAR_LENGTH,
  RELEVANCE_AGE_DAYS,
  RELEVANCE_RECENCY_SCALE,
  RELEVANCE_RECENCY_WEIGHT,
  RELEVANCE_USAGE_WEIGHT,
  SCORE_BOOSTS,
  type MatchTier,
  type SortOption,
} from './constants';
import { stripHtml } from './text';
import { stringList } from './filters';

// The ranking rules of product-rules §5 and §9. The indexed engine and the plain fuse.js baseline share
// these functions, so the two can differ only in which models fuse.js matches and how it
// scores them, which the equivalence tests pin.

/** Text fuse.js indexes for the description: its plain text (markup is not searchable). */
export function searchableDescription(model: Pick<ModelDescriptor, 'model_desc'>): string | undefined {
  const text = stripHtml(model.model_desc);
  return text || undefined;
}

/**
 * product-rules §9 fuse.js keys and weights. fuse.js normalises the weights to sum 1; they are kept as
 * the spec states them.
 */
export const FUSE_KEYS = [
  {
    name: 'display_name',
    weight: KEY_WEIGHTS.display_name,
    getFn: (m: ModelDescriptor) => (typeof m.display_name === 'string' ? m.display_name : undefined),
  },
  { name: 'used_models', weight: KEY_WEIGHTS.used_models, getFn: (m: ModelDescriptor) => stringList(m.used_models) },
  { name: 'model_desc', weight: KEY_WEIGHTS.model_desc, getFn: (m: ModelDescriptor) => searchableDescription(m) },
  { name: 'id', weight: KEY_WEIGHTS.id, getFn: (m: ModelDescriptor) => (m.id == null ? undefined : String(m.id)) },
];

/**
 * fuse.js options (product-rules §9: threshold 0.3, minimum match length 2, the key weights).
 * `ignoreLocation` is our choice (the spec does not name one): a word deep in a description
 * matches as well as one at its start, so "description match" means the whole description.
 */
export const FUSE_OPTIONS: IFuseOptions<ModelDescriptor> = {
  keys: FUSE_KEYS,
  threshold: FUZZY_THRESHOLD,
  minMatchCharLength: MIN_MATCH_CHAR_LENGTH,
  ignoreLocation: true,
  includeScore: true,
  shouldSort: true,
};

/** The lower-cased texts the tier and boost rules look at. */
export interface SearchFields {
  title: string;
  id: string;
  tags: string[];
  description: string;
}

/** Lower-cased title, id, tags and description text of a model. */
export function searchFields(model: ModelDescriptor): SearchFields {
  return {
    title: typeof model.display_name === 'string' ? model.display_name.toLowerCase() : '',
    id: model.id == null ? '' : String(model.id).toLowerCase(),
    tags: stringList(model.used_models).map((t) => t.toLowerCase()),
    description: (searchableDescription(model) ?? '').toLowerCase(),
  };
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** Whether the UTF-16 unit at `at` is part of a word (a letter or a digit). */
function isWordChar(text: string, at: number): boolean {
  if (at < 0 || at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return WORD_CHAR.test(text[at]!);
}

/** True when `needle` occurs in `text` with no letter or digit right before or after it. */
export function containsWholeWord(text: string, needle: string): boolean {
  if (!needle) return false;
  let at = text.indexOf(needle);
  while (at !== -1) {
    if (!isWordChar(text, at - 1) && !isWordChar(text, at + needle.length)) return true;
    at = text.indexOf(needle, at + 1);
  }
  return false;
}

/**
 * product-rules §9 match tier of a fuse.js match for the lower-cased trimmed query: the query as a whole
 * word (or words) in the title 0, inside the title 1, inside a tag 2, inside the description 3,
 * fuzzy only 4; without a query the tier is unknown (9).
 */
export function matchTier(fields: SearchFields, query: string): MatchTier {
  if (!query) return MATCH_TIERS.unknown;
  if (containsWholeWord(fields.title, query)) return MATCH_TIERS.exactTitleWord;
  if (fields.title.includes(query)) return MATCH_TIERS.titleSubstring;
  if (fields.tags.some((t) => t.includes(query))) return MATCH_TIERS.tag;
  if (fields.description.includes(query)) return MATCH_TIERS.description;
  return MATCH_TIERS.fuzzyOnly;
}

/**
 * product-rules §9 score boost, subtracted from the fuse.js score (lower is better): the strongest title
 * boost that applies (exact 0.6, prefix 0.35, substring 0.15) plus the strongest id boost
 * (exact 0.2, prefix 0.1).
 */
export function scoreBoost(fields: Pick<SearchFields, 'title' | 'id'>, query: string): number {
  if (!query) return 0;
  let boost = 0;
  if (fields.title === query) boost += SCORE_BOOSTS.exactTitle;
  else if (fields.title.startsWith(query)) boost += SCORE_BOOSTS.titlePrefix;
  else if (fields.title.includes(query)) boost += SCORE_BOOSTS.titleSubstring;
  if (fields.id === query) boost += SCORE_BOOSTS.exactId;
  else if (fields.id.startsWith(query)) boost += SCORE_BOOSTS.idPrefix;
  return boost;
}

/** created_at as epoch ms; undated models count as oldest. */
export function createdTime(model: Pick<ModelDescriptor, 'created_at'>): number {
  const t = model.created_at ? Date.parse(model.created_at) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

/** n_usages as a number; missing or invalid counts as 0. */
export function usageCount(model: Pick<ModelDescriptor, 'n_usages'>): number {
  const n = model.n_usages;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

const DAY_MS = 86_400_000;

/**
 * product-rules §9 relevance without a query: 0.7 x log10(usages+1) + 0.3 x (10 x exp(-age days/365)).
 * Undated models get no recency part; a date in the future counts as age 0.
 */
export function relevanceScore(model: Pick<ModelDescriptor, 'n_usages' | 'created_at'>, now: number): number {
  const created = createdTime(model);
  const recency =
    created === -Infinity ? 0 : RELEVANCE_RECENCY_SCALE * Math.exp(-Math.max(0, (now - created) / DAY_MS) / RELEVANCE_AGE_DAYS);
  return RELEVANCE_USAGE_WEIGHT * Math.log10(usageCount(model) + 1) + RELEVANCE_RECENCY_WEIGHT * recency;
}

/** The per-model values every order reads; computed once per catalogue by the index. */
export interface RankBase {
  /** n_usages (0 when missing). */
  usages: number;
  /** created_at in epoch ms (-Infinity when missing). */
  created: number;
  /** Lower-cased display name; unnamed models sort after named ones. */
  name: string;
}

const UNNAMED = '\uffff';

/** The rank base of a model. */
export function rankBase(model: ModelDescriptor, fields: Pick<SearchFields, 'title'>): RankBase {
  return { usages: usageCount(model), created: createdTime(model), name: fields.title.trim() || UNNAMED };
}

/**
 * One model prepared for ordering. `score` is, with a query, the fuse.js score minus the boosts
 * (lower is better); without one, the relevance score (higher is better). With a query the
 * fuse.js score may come from a function called on first read: orders read it only to break
 * ties, so most entries never need it.
 */
export class RankEntry {
  private value: number | undefined;
  constructor(
    readonly model: ModelDescriptor,
    /** Position in the catalogue: the last tie-breaker, so every order is total and stable. */
    readonly index: number,
    readonly tier: number,
    readonly usages: number,
    readonly created: number,
    readonly name: string,
    private readonly base: number | ((entry: RankEntry) => number),
    /** Subtracted from `base` (the score boosts; 0 without a query). */
    private readonly boost = 0,
  ) {
    if (typeof base === 'number') this.value = base - boost;
  }

  get score(): number {
    if (this.value === undefined) this.value = (this.base as (entry: RankEntry) => number)(this) - this.boost;
    return this.value;
  }
}

/**
 * A rank entry for a fuse.js match: the tier for the lower-cased query, and the fuse.js score
 * (or a function returning it for an entry, shared by all entries) less the boosts.
 */
export function searchRankEntry(
  model: ModelDescriptor,
  index: number,
  base: RankBase,
  fields: SearchFields,
  query: string,
  fuseScore: number | ((entry: RankEntry) => number),
): RankEntry {
  return new RankEntry(model, index, matchTier(fields, query), base.usages, base.created, base.name, fuseScore, scoreBoost(fields, query));
}

/** A rank entry for the query-less list: tier unknown, the relevance score at `now`. */
export function browseRankEntry(model: ModelDescriptor, index: number, base: RankBase, now: number): RankEntry {
  return new RankEntry(model, index, MATCH_TIERS.unknown, base.usages, base.created, base.name, relevanceScore(model, now));
}

/** The last tie-breakers of every order: name, then position in the catalogue. */
export function compareNames(aName: string, aIndex: number, bName: string, bIndex: number): number {
  return aName < bName ? -1 : aName > bName ? 1 : aIndex - bIndex;
}

const ascending = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);
const descending = (a: number, b: number) => (a === b ? 0 : a > b ? -1 : 1);

/**
 * The keys orders compare. `usages` and `created` are known before any query (they are read
 * from the model's `RankBase`), which lets the search pre-sort the catalogue by them; `tier`
 * and the scores depend on the query.
 */
export const RANK_KEYS = {
  /** Match tier, best (0) first. */
  tier: { compare: (a: RankEntry, b: RankEntry) => a.tier - b.tier },
  /** n_usages, most first. */
  usages: { compare: (a: RankEntry, b: RankEntry) => b.usages - a.usages, base: (m: RankBase) => m.usages, order: descending },
  /** created_at, newest first. */
  created: {
    compare: (a: RankEntry, b: RankEntry) => descending(a.created, b.created),
    base: (m: RankBase) => m.created,
    order: descending,
  },
  /** With a query: fuse.js score less the boosts, lowest first. */
  matchScore: { compare: (a: RankEntry, b: RankEntry) => ascending(a.score, b.score) },
  /** Without a query: the relevance score, highest first. */
  relevance: { compare: (a: RankEntry, b: RankEntry) => descending(a.score, b.score) },
} as const;

export type RankKey = keyof typeof RANK_KEYS;
/** The keys known before the query. */
export type BaseRankKey = { [K in RankKey]: (typeof RANK_KEYS)[K] extends { base: unknown } ? K : never }[RankKey];

export function isBaseRankKey(key: RankKey): key is BaseRankKey {
  return 'base' in RANK_KEYS[key];
}

/**
 * product-rules §9, stated once: the keys an order compares, in sequence, before the name and the
 * catalogue position. Relevance with a query is tier, n_usages, created_at, score; without one,
 * the relevance score. num_runs and published_at put n_usages or created_at first and fall back
 * to relevance (a key already compared is not compared again).
 */
export function rankKeysFor(sort: SortOption, hasQuery: boolean): RankKey[] {
  const relevance: RankKey[] = hasQuery ? ['tier', 'usages', 'created', 'matchScore'] : ['relevance'];
  const lead: RankKey[] = sort === 'num_runs' ? ['usages'] : sort === 'published_at' ? ['created'] : [];
  return [...new Set([...lead, ...relevance])];
}

/** Orders two rank bases by the given keys known before the query, then name and position. */
export function compareBases(keys: readonly BaseRankKey[], a: RankBase, aIndex: number, b: RankBase, bIndex: number): number {
  for (const key of keys) {
    const { base, order } = RANK_KEYS[key];
    const d = order(base(a), base(b));
    if (d) return d;
  }
  return compareNames(a.name, aIndex, b.name, bIndex);
}

/** The comparator for a sort option, built from `rankKeysFor`. */
export function comparatorFor(sort: SortOption, hasQuery: boolean): (a: RankEntry, b: RankEntry) => number {
  const compares = rankKeysFor(sort, hasQuery).map((key) => RANK_KEYS[key].compare);
  return (a, b) => {
    for (const compare of compares) {
      const d = compare(a, b);
      if (d) return d;
    }
    return compareNames(a.name, a.index, b.name, b.index);
  };
}

/**
 * How the search orders matches without comparing them all (see `search.ts`), derived from
 * `rankKeysFor(sort, true)`: walk the catalogue pre-sorted by the keys known before the query
 * (`order`), grouped by those compared before the tier (`groupBy` of them), dropping each match
 * into its tier's bucket within the group. Matches then stand in comparator order except among
 * those equal on every key before the score; those are re-sorted with the comparator.
 */
export interface MatchWalk {
  order: BaseRankKey[];
  groupBy: number;
}

export function matchWalkFor(sort: SortOption): MatchWalk {
  const keys = rankKeysFor(sort, true);
  const tierAt = keys.indexOf('tier');
  const beforeScore = keys.slice(0, keys.indexOf('matchScore'));
  const order = beforeScore.filter(isBaseRankKey);
  // The walk holds only while every key before the score but the tier is known up front.
  if (tierAt < 0 || order.length !== beforeScore.length - 1) {
    throw new Error(`rank keys ${keys.join(', ')}: the match walk needs the tier and base keys before the score`);
  }
  return { order, groupBy: tierAt };
}
