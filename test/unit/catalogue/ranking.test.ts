import { describe, expect, it } from 'vitest';
import { SORT_OPTIONS } from '../../../src/catalogue/constants';
import { clearPattern, myersMin, myersWithin, setPattern, withinEdits } from '../../../src/catalogue/fuseEmulation';
import { comparatorFor, matchWalkFor, RankEntry, rankKeysFor } from '../../../src/catalogue/ranking';
import { fixtureModels, prng } from '../../fixtures/catalogue';

// The rank keys are the one statement of the orders: the comparator and the search's match
// walk are derived from them. The equivalence tests in search.test.ts check the walk against the
// comparator on whole catalogues; these pin the keys themselves.

describe('rank keys (product-rules §9 orders)', () => {
  it('relevance with a query: tier, n_usages, created_at, score; without: the relevance score', () => {
    expect(rankKeysFor('relevance', true)).toEqual(['tier', 'usages', 'created', 'matchScore']);
    expect(rankKeysFor('relevance', false)).toEqual(['relevance']);
  });

  it('num_runs and published_at lead with their key and fall back to relevance, never comparing a key twice', () => {
    expect(rankKeysFor('num_runs', true)).toEqual(['usages', 'tier', 'created', 'matchScore']);
    expect(rankKeysFor('published_at', true)).toEqual(['created', 'tier', 'usages', 'matchScore']);
    expect(rankKeysFor('num_runs', false)).toEqual(['usages', 'relevance']);
    expect(rankKeysFor('published_at', false)).toEqual(['created', 'relevance']);
  });

  it('the match walk: pre-sorted by the keys known before the query, grouped by those before the tier', () => {
    expect(matchWalkFor('relevance')).toEqual({ order: ['usages', 'created'], groupBy: 0 });
    expect(matchWalkFor('num_runs')).toEqual({ order: ['usages', 'created'], groupBy: 1 });
    expect(matchWalkFor('published_at')).toEqual({ order: ['created', 'usages'], groupBy: 1 });
  });

  it('the comparator applies the keys in order, then name, then catalogue position', () => {
    const model = fixtureModels[0]!;
    const entry = (index: number, tier: number, usages: number, created: number, score: number, name = 'a') =>
      new RankEntry(model, index, tier, usages, created, name, score);
    const search = comparatorFor('relevance', true);
    expect(search(entry(0, 1, 100, 5, 0), entry(1, 0, 0, 0, 1))).toBeGreaterThan(0); // tier first
    expect(search(entry(0, 1, 100, 0, 1), entry(1, 1, 5, 9, 0))).toBeLessThan(0); // then runs
    expect(search(entry(0, 1, 5, 1, 0), entry(1, 1, 5, 2, 1))).toBeGreaterThan(0); // then newest
    expect(search(entry(0, 1, 5, 1, 0.2), entry(1, 1, 5, 1, 0.1))).toBeGreaterThan(0); // then lowest score
    expect(search(entry(0, 1, 5, 1, 0.1, 'b'), entry(1, 1, 5, 1, 0.1, 'a'))).toBeGreaterThan(0); // then name
    expect(search(entry(3, 1, 5, 1, 0.1), entry(2, 1, 5, 1, 0.1))).toBeGreaterThan(0); // then position
    const browse = comparatorFor('relevance', false);
    expect(browse(entry(0, 9, 0, 0, 2), entry(1, 9, 100, 9, 3))).toBeGreaterThan(0); // highest relevance first
    const runs = comparatorFor('num_runs', true);
    expect(runs(entry(0, 0, 1, 0, 0), entry(1, 4, 2, 0, 0))).toBeGreaterThan(0); // runs before tier
    const dates = comparatorFor('published_at', false);
    expect(dates(entry(0, 9, 0, 1, 9), entry(1, 9, 0, 2, 0))).toBeGreaterThan(0); // newest before relevance
  });

  it('every sort option has a walk (a key list the walk cannot follow throws)', () => {
    for (const sort of SORT_OPTIONS) expect(() => matchWalkFor(sort)).not.toThrow();
  });
});

/** Semi-global edit distance (the pattern anywhere in the text) by dynamic programming. */
function semiGlobalDistance(text: string, pattern: string): number {
  let previous = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  let best = previous[pattern.length]!;
  for (const ch of text) {
    const row = [0];
    for (let i = 1; i <= pattern.length; i++) {
      row[i] = Math.min(previous[i]! + 1, row[i - 1]! + 1, previous[i - 1]! + (pattern[i - 1] === ch ? 0 : 1));
    }
    best = Math.min(best, row[pattern.length]!);
    previous = row;
  }
  return best;
}

describe('Myers bit-parallel distance (one implementation, two questions)', () => {
  const random = prng(20261123);
  const word = (length: number) => Array.from({ length }, () => 'abcd'[Math.floor(random() * 4)]).join('');

  it('myersMin is the semi-global distance, or a distance within k as soon as one is seen', () => {
    for (let n = 0; n < 3000; n++) {
      const pattern = word(1 + Math.floor(random() * 12));
      const text = word(Math.floor(random() * 30));
      const k = Math.floor(random() * pattern.length);
      const exact = semiGlobalDistance(text, pattern);
      setPattern(pattern);
      try {
        const found = myersMin(text, pattern.length, k);
        if (exact <= k) expect(found).toBeLessThanOrEqual(k);
        else expect(found).toBe(exact);
        expect(myersWithin(text, pattern.length, k)).toBe(exact <= k);
      } finally {
        clearPattern(pattern);
      }
    }
  });

  it('k >= m: withinEdits accepts any text; myersWithin alone asks whether any character matched', () => {
    expect(withinEdits('zzz', 'ab', 2)).toBe(true);
    setPattern('ab');
    try {
      expect(myersWithin('zzz', 2, 2)).toBe(false);
      expect(myersWithin('zbz', 2, 2)).toBe(true);
    } finally {
      clearPattern('ab');
    }
  });
});
