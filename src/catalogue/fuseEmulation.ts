import Fuse from 'fuse.js/basic';
import type { ModelDescriptor } from '../api/types';
import { FUZZY_THRESHOLD } from './constants';
import { FUSE_OPTIONS } from './ranking';

// fuse.js's acceptance rule, restated so the search index can apply it without running fuse.js
// over the catalogue (see searchIndex.ts). Private to the catalogue module: the property tests
// import it from this file and check it against fuse.js itself.

export const MAX_BITS = 32; // fuse.js Bitap works on 32-character chunks of the query.

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

export function setPattern(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) peq[pattern.charCodeAt(i)]! |= 1 << i;
}

export function clearPattern(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) peq[pattern.charCodeAt(i)] = 0;
}

/**
 * Myers over `text` for the pattern in `peq` (length m): the smallest distance of any
 * substring, or, as soon as one within `k` is seen, that distance (the value is accepted then,
 * and its exact distance is not needed).
 */
export function myersMin(text: string, m: number, k: number): number {
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
 * Myers over `text` for the pattern in `peq` (length m): is the distance <= k? `myersMin` stops
 * at the first distance within k, and reports m when the distance never fell below the pattern
 * length (no character matched), which counts as no match even when k >= m; callers check
 * k >= m themselves (`withinEdits`) or never pass it (`SearchIndex`, where k < m).
 */
export function myersWithin(text: string, m: number, k: number): boolean {
  const distance = myersMin(text, m, k);
  return distance <= k && distance < m;
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

/** fuse.js's score for one model and query (1 when it does not match). */
export function fuseScore(model: ModelDescriptor, query: string): number {
  return new Fuse([model], FUSE_OPTIONS).search(query)[0]?.score ?? 1;
}
