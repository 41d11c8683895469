import type { RunResult } from '../runtime';
import { hash32, wordsOf } from './hash';
import { int, invalid } from './inputs';
import { type DemoJob, isMilestone } from './job';

// embeddings: feature hashing (the "hashing trick"). Each word and each character trigram of the
// text adds ±1 to a hashed dimension; the vector is L2-normalised. Deterministic, and texts that
// share words or spellings really do get a higher cosine similarity: a small honest baseline.

const MAX_TEXTS = 256;
const MAX_CHARS = 32_000;

function features(text: string): [string, number][] {
  const out: [string, number][] = [];
  for (const word of wordsOf(text)) {
    out.push([`w:${word}`, 1]);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) out.push([`t:${padded.slice(i, i + 3)}`, 0.5]);
  }
  return out;
}

export function embed(text: string, dimensions: number): number[] {
  const vector = new Float64Array(dimensions);
  for (const [feature, weight] of features(text)) {
    const h = hash32(feature);
    vector[h % dimensions] += h & 0x80000000 ? -weight : weight;
  }
  const norm = Math.hypot(...vector);
  return Array.from(vector, (v) => (norm === 0 ? 0 : v / norm));
}

export async function embedTexts(job: DemoJob): Promise<RunResult> {
  const raw = job.input.input;
  const texts = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(texts) || texts.length === 0) throw invalid('input', 'must be a non-empty array of texts');
  if (texts.length > MAX_TEXTS) throw invalid('input', `at most ${MAX_TEXTS} texts per run`);
  texts.forEach((t, i) => {
    if (typeof t !== 'string') throw invalid(`input[${i}]`, 'must be a string');
    if (wordsOf(t).length === 0) throw invalid(`input[${i}]`, 'has no words to embed');
    if (t.length > MAX_CHARS) throw invalid(`input[${i}]`, `must be at most ${MAX_CHARS} characters`);
  });
  const dimensions = int(job.input, 'dimensions', { fallback: 1024, min: 8, max: 4096 });
  await job.step(0.05, `Embedding ${texts.length} text${texts.length === 1 ? '' : 's'}`);
  const embeddings: number[][] = [];
  for (const [i, t] of (texts as string[]).entries()) {
    embeddings.push(embed(t, dimensions));
    if (isMilestone(i, texts.length, 4)) await job.step(0.1 + (0.85 * (i + 1)) / texts.length, `Embedded ${i + 1} of ${texts.length}`);
    else await job.breathe();
  }
  await job.step(0.95, 'Packing the vectors');
  return {
    embeddings,
    dimensions,
    usage: { tokens: (texts as string[]).reduce((n, t) => n + wordsOf(t).length, 0) },
  };
}
