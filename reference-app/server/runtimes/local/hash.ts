import { createHash } from 'node:crypto';

// Determinism for the demo outputs: the same input always gives the same bytes, different inputs
// differ. A stable hash seeds a small PRNG; Math.random is never used.

/** 32-bit unsigned hash of the given parts (SHA-256 based, so it does not vary by platform). */
export function hash32(...parts: unknown[]): number {
  return createHash('sha256').update(JSON.stringify(parts)).digest().readUInt32BE(0);
}

/** 32-bit unsigned hash of a file's bytes. */
export const hashBytes = (bytes: Uint8Array): number => createHash('sha256').update(bytes).digest().readUInt32BE(0);

/** mulberry32: a tiny, well-distributed PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words of a text, lower-cased, without punctuation. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
