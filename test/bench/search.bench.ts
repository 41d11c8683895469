// Search benchmark: p50/p95 query time of the indexed engine against the straightforward
// fuse.js use (one Fuse instance per catalogue), for a seeded-size catalogue (60 services) and a
// synthetic one of 10,000, asserting identical results for every query.
//
//   node --conditions=source --import tsx test/bench/search.bench.ts [--quick] [--json]
//
// Exits non-zero if any result differs, or if the engine's p95 over the 10,000-service catalogue
// exceeds the 16 ms budget (one frame).
import { performance } from 'node:perf_hooks';
import { getSearchIndex, searchModels, type SearchFilters } from '@limelight/widgets/catalogue';
import type { ModelDescriptor } from '@limelight/widgets/api';
import {
  benchmarkQueries,
  fixtureCategories,
  fixtureModels,
  FIXTURE_NOW,
  generateCatalogue,
} from '../fixtures/catalogue';
import { BaselineSearch } from '../unit/catalogue/baseline';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const BUDGET_P95_MS = 16;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const ids = (list: readonly ModelDescriptor[]) => list.map((m) => m.id).join('\n');
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(3) : ms.toFixed(1)).padStart(8);

interface Row {
  query: string;
  results: number;
  engine: { p50: number; p95: number };
  baseline: { p50: number; p95: number };
}

function runCatalogue(label: string, models: ModelDescriptor[], reps: number) {
  const t0 = performance.now();
  // A fresh array: the engine's index is keyed by array identity, so this times a cold build.
  const catalogue = models.slice();
  getSearchIndex(catalogue);
  const buildEngine = performance.now() - t0;
  const t1 = performance.now();
  const baseline = new BaselineSearch(catalogue, fixtureCategories);
  const buildBaseline = performance.now() - t1;

  const rows: Row[] = [];
  const allEngine: number[] = [];
  const allBaseline: number[] = [];
  let mismatches = 0;
  for (const query of benchmarkQueries) {
    const filters: Partial<SearchFilters> = { query };
    const expected = baseline.search(filters, FIXTURE_NOW);
    const actual = searchModels(catalogue, fixtureCategories, filters, { now: FIXTURE_NOW });
    if (ids(expected) !== ids(actual)) {
      mismatches += 1;
      console.error(`MISMATCH [${label}] query ${JSON.stringify(query)}: baseline ${expected.length}, engine ${actual.length}`);
    }
    // Each side runs its repetitions on its own, so one side's garbage is not collected on the
    // other's clock.
    const engineSamples: number[] = [];
    const baselineSamples: number[] = [];
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      searchModels(catalogue, fixtureCategories, filters, { now: FIXTURE_NOW });
      engineSamples.push(performance.now() - t);
    }
    for (let r = 0; r < reps; r++) {
      const t = performance.now();
      baseline.search(filters, FIXTURE_NOW);
      baselineSamples.push(performance.now() - t);
    }
    allEngine.push(...engineSamples);
    allBaseline.push(...baselineSamples);
    rows.push({ query, results: expected.length, engine: stats(engineSamples), baseline: stats(baselineSamples) });
  }

  // Filters and sorts on top of a query must agree too.
  const combos: Array<Partial<SearchFilters>> = [
    { query: 'image', sort: 'num_runs' },
    { query: 'voice', sort: 'published_at' },
    { query: 'video', inputDomains: ['IMAGE'] },
    { query: 'diffusion', outputDomains: ['image'], inputDomains: ['text'] },
    { query: '', sort: 'relevance' },
    { query: '', sort: 'num_runs', outputDomains: ['AUDIO'] },
    { query: '   ', sort: 'published_at' },
  ];
  for (const filters of combos) {
    const expected = baseline.search(filters, FIXTURE_NOW);
    const actual = searchModels(catalogue, fixtureCategories, filters, { now: FIXTURE_NOW });
    if (ids(expected) !== ids(actual)) {
      mismatches += 1;
      console.error(`MISMATCH [${label}] filters ${JSON.stringify(filters)}`);
    }
  }

  console.log(`\n${label}: ${catalogue.length} services, ${reps} runs per query`);
  console.log(`  build: engine index ${buildEngine.toFixed(1)} ms, baseline Fuse ${buildBaseline.toFixed(1)} ms`);
  console.log(`  ${'query'.padEnd(62)} ${'hits'.padStart(6)}  engine p50/p95 ms   baseline p50/p95 ms`);
  for (const row of rows) {
    console.log(
      `  ${JSON.stringify(row.query).padEnd(62)} ${String(row.results).padStart(6)}  ${fmt(row.engine.p50)} ${fmt(row.engine.p95)}   ${fmt(row.baseline.p50)} ${fmt(row.baseline.p95)}`,
    );
  }
  const engine = stats(allEngine);
  const base = stats(allBaseline);
  console.log(
    `  ${'ALL QUERIES'.padEnd(62)} ${''.padStart(6)}  ${fmt(engine.p50)} ${fmt(engine.p95)}   ${fmt(base.p50)} ${fmt(base.p95)}`,
  );
  console.log(`  identical results: ${mismatches === 0 ? 'yes' : `NO (${mismatches} differ)`}`);
  return { label, size: catalogue.length, engine, baseline: base, buildEngine, buildBaseline, mismatches, rows };
}

const seeded = [...fixtureModels, ...generateCatalogue(60 - fixtureModels.length, 7)];
const large = generateCatalogue(10_000, 42);

const small = runCatalogue('seeded-size catalogue', seeded, quick ? 20 : 200);
const big = runCatalogue('synthetic catalogue', large, quick ? 3 : 15);

if (args.has('--json')) console.log(JSON.stringify({ small, big }, null, 2));

let failed = false;
if (small.mismatches || big.mismatches) {
  console.error('\nFAIL: the engine and the fuse.js baseline returned different results');
  failed = true;
}
if (big.engine.p95 > BUDGET_P95_MS) {
  console.error(`\nFAIL: p95 ${big.engine.p95.toFixed(1)} ms over 10,000 services exceeds the ${BUDGET_P95_MS} ms budget`);
  failed = true;
}
console.log(failed ? '\nbenchmark FAILED' : '\nbenchmark passed');
process.exit(failed ? 1 : 0);
