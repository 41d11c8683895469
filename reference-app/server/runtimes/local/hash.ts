import { createHash } from 'node:crypto';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

// Determinism for the demo outputs: the same input always gives the same bytes, different inputs
// differ. A stable hash seeds a PRNG; Math.random is never used.

/** 32-bit unsigned hash of the given parts (SHA-256 based, so it does not vary by platform). */
export function hash32(...parts: unknown[]): number {
  return createHash('sha256').update(JSON.stringify(parts)).digest().readUInt32BE(0);
}

/** 32-bit unsigned hash of a file's bytes. */
export const hashBytes = (bytes: Uint8Array): number => createHash('sha256').update(bytes).digest().readUInt32BE(0);

/** A seeded stream of floats in [0, 1) (pure-rand's xoroshiro128+, advanced in place). */
export function prng(seed: number): () => number {
  const generator = xoroshiro128plus(seed | 0);
  return () => uniformFloat64(generator);
}

/** The words of a text, lower-cased, without punctuation. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
