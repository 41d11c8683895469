// Reference-app helpers of the catalogue pages: the overview's URL state (product-rules §2: q, sort,
// input, output, provider; §9 page sizes) and the home showcase's chips (product-rules §2).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OVERVIEW_STATE,
  overviewParams,
  paginate,
  parseOverviewParams,
  toggle,
} from '../../../reference-app/src/pages/catalogue/overviewUrl';
import {
  INITIAL_CHIP,
  SHOWCASE_CHIPS,
  modelsForChip,
  titleMatchesChip,
  toggleChip,
} from '../../../reference-app/src/pages/home/showcaseChips';
import { defaultStrings } from '../../../src/config';
import { fixtureCategories, fixtureModels } from '../../fixtures/catalogue';

const parse = (search: string) => parseOverviewParams(new URLSearchParams(search));

describe('overview URL state (product-rules §2)', () => {
  it('reads q, sort, input, output, provider, size and page', () => {
    expect(parse('q=%20image%20&sort=num_runs&input=TEXT,image&output=AUDIO&provider=replicate&size=25&page=3')).toEqual({
      query: 'image',
      sort: 'num_runs',
      inputDomains: ['TEXT', 'image'],
      outputDomains: ['AUDIO'],
      providers: ['replicate'],
      hideDemos: false,
      pageSize: 25,
      page: 3,
    });
    expect(parse('demos=hide').hideDemos).toBe(true);
    expect(parse('input=TEXT&input=VIDEO,TEXT').inputDomains).toEqual(['TEXT', 'VIDEO']);
    expect(parse('size=all').pageSize).toBe('all');
  });

  it('falls back to the defaults for missing or malformed values', () => {
    expect(parse('')).toEqual(DEFAULT_OVERVIEW_STATE);
    expect(parse('sort=best&size=7&page=-2')).toEqual(DEFAULT_OVERVIEW_STATE);
    expect(DEFAULT_OVERVIEW_STATE.pageSize).toBe(10);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(overviewParams(DEFAULT_OVERVIEW_STATE).toString()).toBe('');
    const state = {
      ...DEFAULT_OVERVIEW_STATE,
      query: 'voice clone',
      sort: 'published_at' as const,
      outputDomains: ['AUDIO', 'TEXT'],
      pageSize: 'all' as const,
    };
    const written = overviewParams(state).toString();
    expect(written).toBe('q=voice+clone&sort=published_at&output=AUDIO%2CTEXT&size=all');
    expect(parse(written)).toEqual(state);
  });

  it('pages lists by the page size, clamping the page', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(paginate(items, 10, 1)).toMatchObject({ items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], page: 1, pages: 3, from: 1, to: 10 });
    expect(paginate(items, 10, 3)).toMatchObject({ items: [20, 21, 22], page: 3, from: 21, to: 23 });
    expect(paginate(items, 10, 99).page).toBe(3);
    expect(paginate(items, 'all', 2)).toMatchObject({ page: 1, pages: 1, total: 23 });
    expect(paginate([], 25, 1)).toMatchObject({ items: [], pages: 1, from: 0, to: 0 });
  });

  it('toggles domains case-insensitively', () => {
    expect(toggle(['TEXT'], 'IMAGE')).toEqual(['TEXT', 'IMAGE']);
    expect(toggle(['TEXT', 'IMAGE'], 'text')).toEqual(['IMAGE']);
  });
});

describe('home showcase chips (product-rules §2)', () => {
  const labels = defaultStrings.search.showcase.chips;

  it('come in the spec order with Generate images selected first', () => {
    expect(SHOWCASE_CHIPS.map((c) => labels[c.key])).toEqual([
      'Generate images',
      'text',
      'speech',
      'videos',
      '3D',
      'Swap faces',
      'Voice cloning',
      'Background removal',
    ]);
    expect(labels[INITIAL_CHIP]).toBe('Generate images');
  });

  it('toggle: clicking selects, clicking the selected one deselects', () => {
    expect(toggleChip('images', 'text')).toBe('text');
    expect(toggleChip('text', 'text')).toBeNull();
    expect(toggleChip(null, 'speech')).toBe('speech');
  });

  it('match categories titled like the chip', () => {
    expect(titleMatchesChip({ id: 'x', title: 'Generate images', input_domain: [], output_domain: [] }, 'Generate images')).toBe(true);
    expect(titleMatchesChip({ id: 'x', title: 'Generate 3D', input_domain: [], output_domain: [] }, '3D')).toBe(true);
    expect(titleMatchesChip({ id: 'x', title: 'Swap faces', input_domain: [], output_domain: [] }, 'Swap faces')).toBe(true);
    expect(titleMatchesChip({ id: 'x', title: 'Edit images', input_domain: [], output_domain: [] }, 'Generate images')).toBe(false);
  });

  it('fall back to domains and keywords for catalogues without such titles', () => {
    const ids = (chip: Parameters<typeof modelsForChip>[2]) =>
      modelsForChip(fixtureModels, fixtureCategories, chip, chip ? labels[chip] : undefined).map((m) => m.id);
    expect(ids('images')).toEqual(expect.arrayContaining(['flux-schnell', 'sdxl', 'fast-image-gen']));
    expect(ids('images')).not.toContain('face2face');
    expect(ids('faceSwap')).toEqual(['face2face']);
    expect(ids('backgroundRemoval')).toEqual(['background-remover']);
    expect(ids('voiceCloning')).toEqual(expect.arrayContaining(['speechcraft', 'voice-cloner']));
    expect(ids(null)).toHaveLength(fixtureModels.length);
  });
});
