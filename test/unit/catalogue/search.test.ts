// The search rules of product-rules §5 and §9, and the equivalence of the indexed engine with the
// straightforward fuse.js use.
import Fuse from 'fuse.js';
import { describe, expect, it, vi } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import { SORT_OPTIONS, searchModels } from '../../../src/catalogue';
import { DEFAULT_FILTERS } from '../../../src/catalogue/filters';
import { MATCH_TIERS } from '../../../src/catalogue/constants';
import { fuseAccepts, maxErrors, patternChunks, withinEdits } from '../../../src/catalogue/fuseEmulation';
import { FUSE_OPTIONS, containsWholeWord, matchTier, relevanceScore, scoreBoost, searchFields } from '../../../src/catalogue/ranking';
import { SearchIndex } from '../../../src/catalogue/searchIndex';
import {
  benchmarkQueries,
  fixtureCategories,
  fixtureModel,
  fixtureModels,
  FIXTURE_NOW,
  generateCatalogue,
  prng,
} from '../../fixtures/catalogue';
import { BaselineSearch } from './baseline';

const ids = (list: readonly ModelDescriptor[]) => list.map((m) => m.id);
const search = (query: string, extra: Record<string, unknown> = {}, models = fixtureModels) =>
  ids(searchModels(models, fixtureCategories, { query, ...extra }, { now: FIXTURE_NOW }));

const DAY = 86_400_000;
const model = (id: string, fields: Partial<ModelDescriptor> = {}): ModelDescriptor => ({
  id,
  display_name: id,
  model_desc: '',
  used_models: [],
  model_category: null,
  created_at: new Date(FIXTURE_NOW - 10 * DAY).toISOString(),
  n_usages: 0,
  ...fields,
});

describe('fuse.js options (product-rules §9)', () => {
  it('uses threshold 0.3, minimum match length 2 and the key weights 0.75 / 0.15 / 0.1 / 0.05', () => {
    expect(FUSE_OPTIONS.threshold).toBe(0.3);
    expect(FUSE_OPTIONS.minMatchCharLength).toBe(2);
    const weights = Object.fromEntries((FUSE_OPTIONS.keys as Array<{ name: string; weight: number }>).map((k) => [k.name, k.weight]));
    expect(weights).toEqual({ display_name: 0.75, used_models: 0.15, model_desc: 0.1, id: 0.05 });
  });
});

describe('query (product-rules §5)', () => {
  it('counts only when non-blank after trimming: a blank query lists everything', () => {
    expect(search('   ')).toEqual(search(''));
    expect(search('')).toHaveLength(fixtureModels.length);
  });

  it('is trimmed before matching', () => {
    expect(search('  whisper  ')).toEqual(search('whisper'));
    expect(search('whisper')[0]).toBe('whisper');
  });

  it('matches fuzzily within the threshold: a typo still finds the service', () => {
    expect(search('wisper')).toContain('whisper');
    expect(search('stabel difusion')).toContain('sdxl');
    expect(search('zzqxv')).toEqual([]);
  });

  it('matches the description text, not its markup', () => {
    expect(search('transparent png')).toContain('background-remover');
    expect(search('script')).not.toContain('face2face');
  });

  it('needs a match of at least 2 characters: one character only matches where it appears twice in a row', () => {
    const models = [model('a1', { display_name: 'Llama' }), model('a2', { display_name: 'Lama' })];
    expect(search('l', {}, models)).toEqual(['a1']);
    expect(search('m', {}, models)).toEqual([]);
  });
});

describe('match tiers (product-rules §9)', () => {
  const fields = (m: Partial<ModelDescriptor>) => searchFields(model('x', m));
  it('exact word in title 0, title substring 1, tag 2, description 3, fuzzy only 4, unknown 9', () => {
    expect(matchTier(fields({ display_name: 'Stable Video Diffusion' }), 'video')).toBe(MATCH_TIERS.exactTitleWord);
    expect(matchTier(fields({ display_name: 'black-forest-labs/flux-schnell' }), 'flux')).toBe(0);
    expect(matchTier(fields({ display_name: 'Stable Video Diffusion' }), 'stable video')).toBe(0);
    expect(matchTier(fields({ display_name: 'Videogen' }), 'video')).toBe(MATCH_TIERS.titleSubstring);
    expect(matchTier(fields({ display_name: 'X', used_models: ['svd-video'] }), 'video')).toBe(MATCH_TIERS.tag);
    expect(matchTier(fields({ display_name: 'X', model_desc: '<b>Video</b> model' }), 'video')).toBe(MATCH_TIERS.description);
    expect(matchTier(fields({ display_name: 'Vidoe maker' }), 'video')).toBe(MATCH_TIERS.fuzzyOnly);
    expect(matchTier(fields({ display_name: 'Video' }), '')).toBe(MATCH_TIERS.unknown);
    expect([
      MATCH_TIERS.exactTitleWord,
      MATCH_TIERS.titleSubstring,
      MATCH_TIERS.tag,
      MATCH_TIERS.description,
      MATCH_TIERS.fuzzyOnly,
      MATCH_TIERS.unknown,
    ]).toEqual([0, 1, 2, 3, 4, 9]);
  });

  it('finds whole words by letter and digit boundaries', () => {
    expect(containsWholeWord('image upscaler', 'image')).toBe(true);
    expect(containsWholeWord('images', 'image')).toBe(false);
    expect(containsWholeWord('my-image_2', 'image')).toBe(true);
    expect(containsWholeWord('image2', 'image')).toBe(false);
  });

  it('ranks a lower tier first whatever the run counts (product-rules §9 order)', () => {
    const models = [
      model('desc', { display_name: 'Alpha', model_desc: 'renders a portrait', n_usages: 9_000_000 }),
      model('tag', { display_name: 'Beta', used_models: ['portrait-net'], n_usages: 90_000 }),
      model('sub', { display_name: 'Portraitist', n_usages: 900 }),
      model('word', { display_name: 'Portrait Studio', n_usages: 9 }),
    ];
    expect(search('portrait', {}, models)).toEqual(['word', 'sub', 'tag', 'desc']);
  });
});

describe('score boosts (product-rules §9, lower is better)', () => {
  const f = (title: string, id: string) => ({ title, id });
  it('exact title 0.6, title prefix 0.35, title substring 0.15, exact id 0.2, id prefix 0.1', () => {
    expect(scoreBoost(f('flux', 'zzz'), 'flux')).toBe(0.6);
    expect(scoreBoost(f('flux pro', 'zzz'), 'flux')).toBe(0.35);
    expect(scoreBoost(f('bfl/flux', 'zzz'), 'flux')).toBe(0.15);
    expect(scoreBoost(f('zzz', 'flux'), 'flux')).toBe(0.2);
    expect(scoreBoost(f('zzz', 'flux-dev'), 'flux')).toBe(0.1);
    expect(scoreBoost(f('flux', 'flux'), 'flux')).toBeCloseTo(0.8, 12);
    expect(scoreBoost(f('zzz', 'zzz'), 'flux')).toBe(0);
    expect(scoreBoost(f('flux', 'flux'), '')).toBe(0);
  });

  it('break ties between matches equal in tier, runs and date', () => {
    const created_at = new Date(FIXTURE_NOW - 5 * DAY).toISOString();
    const models = [
      model('c', { display_name: 'Echo tool', created_at, n_usages: 5 }),
      model('b', { display_name: 'Echo', created_at, n_usages: 5 }),
      model('a', { display_name: 'Echoes', created_at, n_usages: 5 }),
    ];
    // Tier 0 for 'Echo' and 'Echo tool'; exact title (0.6) beats prefix (0.35). 'Echoes' is tier 1.
    expect(search('echo', {}, models)).toEqual(['b', 'c', 'a']);
  });
});

describe('relevance order with a query (product-rules §9): tier, n_usages desc, created_at newest, score, name', () => {
  it('orders by runs within a tier, then by date, then by name', () => {
    const at = (days: number) => new Date(FIXTURE_NOW - days * DAY).toISOString();
    const models = [
      model('old', { display_name: 'Tool old', n_usages: 10, created_at: at(300) }),
      model('new', { display_name: 'Tool new', n_usages: 10, created_at: at(3) }),
      model('popular', { display_name: 'Tool popular', n_usages: 1000, created_at: at(900) }),
      model('zed', { display_name: 'Tool zed', n_usages: 10, created_at: at(3) }),
      model('undated', { display_name: 'Tool undated', n_usages: 10, created_at: null }),
    ];
    // 'new' and 'zed' tie on tier, runs and date; their scores are equal too, so the name decides.
    expect(search('tool', {}, models)).toEqual(['popular', 'new', 'zed', 'old', 'undated']);
  });
});

describe('relevance without a query (product-rules §9)', () => {
  it('is 0.7 x log10(usages+1) + 0.3 x (10 x exp(-age days/365))', () => {
    const m = { n_usages: 999, created_at: new Date(FIXTURE_NOW - 365 * DAY).toISOString() };
    expect(relevanceScore(m, FIXTURE_NOW)).toBeCloseTo(0.7 * 3 + 0.3 * 10 * Math.exp(-1), 12);
    expect(relevanceScore({ n_usages: 0, created_at: new Date(FIXTURE_NOW).toISOString() }, FIXTURE_NOW)).toBeCloseTo(3, 12);
    expect(relevanceScore({ n_usages: null, created_at: null }, FIXTURE_NOW)).toBe(0);
  });

  it('orders the unfiltered list by that score, highest first', () => {
    const listed = searchModels(fixtureModels, fixtureCategories, {}, { now: FIXTURE_NOW });
    const scores = listed.map((m) => relevanceScore(m, FIXTURE_NOW));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // 412M runs and 120 days old (8.19) beats 1.25B runs and 400 days old (7.37).
    expect(listed[0]!.id).toBe('flux-schnell');
  });
});

describe('sorts (product-rules §9): relevance, num_runs, published_at', () => {
  it('offers exactly these three', () => {
    expect(SORT_OPTIONS).toEqual(['relevance', 'num_runs', 'published_at']);
  });

  it('num_runs orders by n_usages, most first, with or without a query', () => {
    const byRuns = searchModels(fixtureModels, fixtureCategories, { sort: 'num_runs' }, { now: FIXTURE_NOW });
    const runs = byRuns.map((m) => m.n_usages ?? 0);
    expect(runs).toEqual([...runs].sort((a, b) => b - a));
    expect(search('image', { sort: 'num_runs' }).slice(0, 2)).toEqual(['flux-schnell', 'sdxl']);
  });

  it('published_at orders by created_at, newest first, undated last', () => {
    const byDate = searchModels(fixtureModels, fixtureCategories, { sort: 'published_at' }, { now: FIXTURE_NOW });
    expect(byDate[0]!.id).toBe('image');
    expect(byDate[byDate.length - 1]!.id).toBe('no-name-service');
    const times = byDate.filter((m) => m.created_at).map((m) => Date.parse(m.created_at!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('falls back to relevance for an unknown sort', () => {
    expect(search('', { sort: 'nonsense' })).toEqual(search('', { sort: 'relevance' }));
  });
});

describe('domain filters (product-rules §5)', () => {
  it('compare ignoring case and non-alphanumerics', () => {
    expect(search('', { outputDomains: ['audio'] })).toEqual(search('', { outputDomains: ['AUDIO'] }));
    expect(search('', { outputDomains: [' Audio! '] })).toEqual(search('', { outputDomains: ['AUDIO'] }));
    expect(search('', { inputDomains: ['video'] })).toEqual(['wav2lip']);
  });

  it('need input and output satisfied by the same category', () => {
    // SpeechCraft is tts (text -> audio) and voice-cloning (audio,text -> audio): audio -> audio matches.
    expect(search('', { inputDomains: ['AUDIO'], outputDomains: ['AUDIO'] })).toEqual(
      expect.arrayContaining(['speechcraft', 'voice-cloner']),
    );
    // Image Captioner: llm only (text -> text). No single category is image -> text.
    expect(search('', { inputDomains: ['IMAGE'], outputDomains: ['TEXT'] })).toEqual([]);
    // Depth Anything: img2img (image -> image) and 3d (image,text -> misc): text -> image needs one category.
    expect(search('', { inputDomains: ['TEXT'], outputDomains: ['IMAGE'] })).not.toContain('depth-anything');
  });

  it('accept any of several selected domains', () => {
    const audioOrVideo = search('', { outputDomains: ['AUDIO', 'VIDEO'] });
    expect(audioOrVideo).toEqual(expect.arrayContaining(['musicgen', 'stable-video-diffusion', 'kokoro']));
  });

  it('hide models without a category, or with only unknown ones, while active', () => {
    expect(search('')).toEqual(expect.arrayContaining(['no-name-service', 'orphan-category']));
    const filtered = search('', { outputDomains: ['IMAGE', 'TEXT', 'AUDIO', 'VIDEO', 'ANIMATION', 'MISC'] });
    expect(filtered).not.toContain('no-name-service');
    expect(filtered).not.toContain('orphan-category');
    expect(filtered).toHaveLength(fixtureModels.length - 2);
  });

  it('read model_category as a string, a list or an object keyed by category id (product-rules §3)', () => {
    expect(search('', { inputDomains: ['IMAGE'], outputDomains: ['IMAGE'] })).toEqual(
      expect.arrayContaining(['face2face', 'sdxl', 'image']),
    );
    // speechcraft's categories come from an object; whisper's from a list; trellis's from a string.
    expect(search('', { outputDomains: ['audio'] })).toContain('speechcraft');
    expect(search('', { inputDomains: ['audio'], outputDomains: ['text'] })).toEqual(['whisper']);
    expect(search('', { outputDomains: ['MISC'] })).toEqual(expect.arrayContaining(['trellis', 'depth-anything']));
  });

  it('combine with a query', () => {
    expect(search('image', { outputDomains: ['TEXT'] })).toEqual(['image-captioner']);
  });
});

describe('provider filter (product-rules §5)', () => {
  it('is stored but has no effect on results', () => {
    expect(search('', { providers: ['replicate'] })).toEqual(search(''));
    expect(search('image', { providers: ['limelight'] })).toEqual(search('image'));
  });

  it('resets to the defaults of product-rules §4', () => {
    expect(DEFAULT_FILTERS).toEqual({ query: '', sort: 'relevance', inputDomains: [], outputDomains: [], providers: [] });
  });
});

describe("fuse.js's acceptance rule", () => {
  it('gives the largest error count within the threshold', () => {
    expect([1, 2, 3, 4, 6, 7, 10, 13, 14, 32].map((n) => maxErrors(n))).toEqual([0, 0, 0, 1, 1, 2, 3, 3, 4, 9]);
  });

  it('splits long patterns into fuse.js chunks of 32', () => {
    expect(patternChunks('a'.repeat(32))).toHaveLength(1);
    const chunks = patternChunks('abcdefghijklmnopqrstuvwxyz0123456789');
    expect(chunks).toEqual(['abcdefghijklmnopqrstuvwxyz012345', 'efghijklmnopqrstuvwxyz0123456789']);
  });

  it('finds substrings within k edits (Myers)', () => {
    expect(withinEdits('stable diffusion xl', 'stabel difusion', 4)).toBe(true);
    expect(withinEdits('stable diffusion xl', 'stabel difusion', 1)).toBe(false);
    expect(withinEdits('abc', 'abc', 0)).toBe(true);
    expect(withinEdits('xabcx', 'abd', 1)).toBe(true);
    expect(() => withinEdits('x', 'a'.repeat(33), 1)).toThrow(RangeError);
  });

  it('agrees with Fuse.match on 20,000 random strings, typos and long patterns (rule and engine)', () => {
    const rand = prng(7);
    const pick = (s: string) => s[Math.floor(rand() * s.length)]!;
    const randomText = (n: number, alphabet: string) => Array.from({ length: n }, () => pick(alphabet)).join('');
    const mutate = (s: string, edits: number) => {
      const a = s.split('');
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(rand() * (a.length + 1));
        const op = Math.floor(rand() * 3);
        if (op === 0 && a.length) a.splice(Math.min(at, a.length - 1), 1);
        else if (op === 1) a.splice(at, 0, pick('abcxyz -'));
        else if (a.length) a[Math.min(at, a.length - 1)] = pick('abcxyz -');
      }
      return a.join('');
    };
    const options = { threshold: 0.3, minMatchCharLength: 2, ignoreLocation: true };
    let positives = 0;
    for (let i = 0; i < 20_000; i++) {
      const alphabet = i % 3 === 0 ? 'ab' : i % 3 === 1 ? 'abcdef -/' : 'aAbBİıß é-';
      const text = randomText(1 + Math.floor(rand() * 90), alphabet);
      let pattern =
        rand() < 0.6
          ? mutate(text.slice(Math.floor(rand() * text.length)).slice(0, 1 + Math.floor(rand() * 70)), Math.floor(rand() * 8))
          : randomText(1 + Math.floor(rand() * 14), alphabet);
      pattern = pattern.trim();
      if (!pattern) continue;
      const expected = Fuse.match(pattern, text, options).isMatch;
      if (expected) positives += 1;
      const rule = fuseAccepts(text.toLowerCase(), pattern.toLowerCase());
      // The engine itself: a one-value catalogue (the text as id) through the bigram index.
      const engine = new SearchIndex([{ id: text }]).match(pattern).length === 1;
      if (rule !== expected || engine !== expected) {
        throw new Error(`differs for ${JSON.stringify({ text, pattern, expected, rule, engine })}`);
      }
    }
    expect(positives).toBeGreaterThan(2000);
  });
});

// The catalogue sizes are what CI can afford (docs/testing.md): every rule the engine shortcuts
// (tiers, ties, typos, long patterns) shows at these sizes. Measured: each of the three tests
// below runs exactly the same blocks of the engine, the reference and fuse.js (V8's precise block
// coverage, every block hit or missed alike) at these sizes as at 4x (typos: 2,000, benchmark
// queries: 4,000) and 2.7x (ties: 800) the size; `npm run bench search` compares the two on
// 10,000 services too, and times them.
describe('indexed engine = straightforward fuse.js (product-rules §9 rules on both)', () => {
  const combos: Array<Record<string, unknown>> = [
    {},
    { sort: 'num_runs' },
    { sort: 'published_at' },
    { inputDomains: ['image'] },
    { outputDomains: ['AUDIO', 'video'], sort: 'num_runs' },
    { inputDomains: ['text'], outputDomains: ['image'], sort: 'published_at' },
  ];

  function expectSame(models: ModelDescriptor[], queries: string[]) {
    const baseline = new BaselineSearch(models, fixtureCategories);
    let compared = 0;
    for (const query of queries) {
      for (const extra of combos) {
        const filters = { query, ...extra };
        const expected = ids(baseline.search(filters, FIXTURE_NOW));
        const actual = ids(searchModels(models, fixtureCategories, filters, { now: FIXTURE_NOW }));
        if (expected.join('\n') !== actual.join('\n')) {
          throw new Error(`engine differs from fuse.js for ${JSON.stringify(filters)}: ${actual.length} vs ${expected.length}`);
        }
        compared += 1;
      }
    }
    return compared;
  }

  it('on the fixtures, for every benchmark query, sort and domain filter', () => {
    expect(expectSame(fixtureModels, [...benchmarkQueries, 'Face2Face', 'meta/musicgen', 'openai/whisper', 'ab'])).toBeGreaterThan(100);
  });

  it('on 500 synthetic services for 60 random typo queries', { timeout: 180_000 }, () => {
    const models = generateCatalogue(500, 11);
    const rand = prng(99);
    const queries: string[] = [];
    for (let i = 0; i < 60; i++) {
      const source = models[Math.floor(rand() * models.length)]!;
      const text =
        [source.display_name ?? source.id, source.model_desc ?? '', ...(source.used_models ?? [])][Math.floor(rand() * 3)] || source.id;
      const start = Math.floor(rand() * Math.max(1, text.length - 3));
      let q = text.slice(start, start + 2 + Math.floor(rand() * 20)).replace(/<[^>]*>?/g, '');
      if (rand() < 0.5 && q.length > 3) {
        const at = Math.floor(rand() * q.length);
        q = q.slice(0, at) + q.slice(at + 1);
      }
      if (q.trim()) queries.push(q);
    }
    const baseline = new BaselineSearch(models, fixtureCategories);
    for (const query of queries) {
      const expected = ids(baseline.search({ query }, FIXTURE_NOW));
      const actual = ids(searchModels(models, fixtureCategories, { query }, { now: FIXTURE_NOW }));
      if (expected.join('\n') !== actual.join('\n')) throw new Error(`engine differs from fuse.js for ${JSON.stringify(query)}`);
    }
  });

  it('on 1,000 synthetic services for every benchmark query', { timeout: 300_000 }, () => {
    const models = generateCatalogue(1_000, 42);
    const baseline = new BaselineSearch(models, fixtureCategories);
    for (const query of benchmarkQueries) {
      const expected = ids(baseline.search({ query }, FIXTURE_NOW));
      const actual = ids(searchModels(models, fixtureCategories, { query }, { now: FIXTURE_NOW }));
      if (expected.join('\n') !== actual.join('\n')) throw new Error(`engine differs from fuse.js for ${JSON.stringify(query)}`);
    }
  });

  it('on a catalogue full of ties (3 run counts, 3 dates): the score and the name decide', { timeout: 120_000 }, () => {
    const rand = prng(5);
    const dates = [null, '2025-01-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'];
    const models = generateCatalogue(300, 3).map((m) => ({
      ...m,
      n_usages: [0, 10, 1000][Math.floor(rand() * 3)]!,
      created_at: dates[Math.floor(rand() * 3)]!,
      display_name: rand() < 0.2 ? 'Same Name' : m.display_name,
    }));
    expect(expectSame(models, ['image', 'same name', 'voice clone', 'flux', 'generate images from a single prompt', 'im'])).toBe(36);
  });

  it('returns a fresh result for a new catalogue array (the index is per array)', () => {
    const first = fixtureModels.slice(0, 5);
    const second = [...first, fixtureModel('kokoro')];
    expect(search('kokoro', {}, first)).toEqual([]);
    expect(search('kokoro', {}, second)).toEqual(['kokoro']);
  });
});

describe('the clock', () => {
  // A Server Component prerendering a search (Next's cacheComponents) fails on any Date.now()
  // call (docs/frameworks.md, "Next.js"); only the query-less browse order depends on time.
  it('is read for browsing without a query and never for a search with one', () => {
    const clock = vi.spyOn(Date, 'now');
    try {
      expect(searchModels(fixtureModels, fixtureCategories, { query: 'whisper' }).length).toBeGreaterThan(0);
      expect(clock).not.toHaveBeenCalled();
      searchModels(fixtureModels, fixtureCategories, { query: '' });
      expect(clock).toHaveBeenCalled();
    } finally {
      clock.mockRestore();
    }
  });
});
