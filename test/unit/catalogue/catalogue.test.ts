// Categories, domains, service paths and featured/own model selection (product-rules §2, §3, §4, §9).
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import {
  PAGE_SIZES,
  DEFAULT_PAGE_SIZE,
  categoryIdsOf,
  domainOptions,
  findServiceByPath,
  normalizeDomain,
  resolveCategories,
  servicePath,
  sortDomains,
} from '../../../src/catalogue';
import { FEATURED_LIMIT, selectFeatured } from '../../../reference-app/src/pages/home/featured';
import { overviewHref, serviceHref, servicePathSegments } from '../../../src/catalogue/paths';
import { ownModels } from '../../../src/catalogue/featured';
import { fixtureCategories, fixtureModel, fixtureModels } from '../../fixtures/catalogue';

describe('model_category shapes (product-rules §3)', () => {
  it('reads a string, a list, or an object keyed by category id', () => {
    expect(categoryIdsOf({ model_category: 'tts' })).toEqual(['tts']);
    expect(categoryIdsOf({ model_category: ['tts', 'stt', 'tts', ' '] })).toEqual(['tts', 'stt']);
    expect(categoryIdsOf({ model_category: { tts: {}, 'voice-cloning': true } })).toEqual(['tts', 'voice-cloning']);
    expect(categoryIdsOf({ model_category: [{ id: 'llm' }, 7] as never })).toEqual(['llm', '7']);
    expect(categoryIdsOf({ model_category: null })).toEqual([]);
    expect(categoryIdsOf({ model_category: '  ' })).toEqual([]);
  });

  it('resolves known categories and drops unknown ids', () => {
    expect(resolveCategories(fixtureModel('speechcraft'), fixtureCategories).map((c) => c.id)).toEqual(['tts', 'voice-cloning']);
    expect(resolveCategories(fixtureModel('orphan-category'), fixtureCategories)).toEqual([]);
  });
});

describe('domains (product-rules §3, §5, §9)', () => {
  it('normalise ignoring case and non-alphanumerics', () => {
    expect(normalizeDomain(' Audio- ')).toBe('audio');
    expect(normalizeDomain('IMAGE')).toBe('image');
    expect(normalizeDomain(null)).toBe('');
  });

  it('display in the order TEXT, AUDIO, IMAGE, VIDEO, ANIMATION, MISC, others last', () => {
    expect(sortDomains(['misc', 'video', '3D', 'Animation', 'image', 'audio', 'text', 'Depth', 'AUDIO '])).toEqual([
      'TEXT',
      'AUDIO',
      'IMAGE',
      'VIDEO',
      'ANIMATION',
      'MISC',
      '3D',
      'DEPTH',
    ]);
  });

  it("lists the categories' input and output domains in that order", () => {
    expect(domainOptions(fixtureCategories)).toEqual({
      input: ['TEXT', 'AUDIO', 'IMAGE', 'VIDEO'],
      output: ['TEXT', 'AUDIO', 'IMAGE', 'VIDEO', 'ANIMATION', 'MISC'],
    });
  });
});

describe('service paths (product-rules §2)', () => {
  it('use the URL-encoded display name', () => {
    expect(servicePath(fixtureModel('fast-image-gen'))).toBe('Fast%20image%20generator');
    expect(serviceHref(fixtureModel('speechcraft'))).toBe('/APIs/service/SpeechCraft');
  });

  it('split a name with a slash into owner and name, each part encoded', () => {
    expect(servicePathSegments({ id: 'x', display_name: 'black-forest-labs/flux-schnell' })).toEqual(['black-forest-labs', 'flux-schnell']);
    expect(serviceHref(fixtureModel('flux-schnell'))).toBe('/APIs/service/black-forest-labs/flux-schnell');
    expect(servicePath({ id: 'x', display_name: 'my org/a b?c' })).toBe('my%20org/a%20b%3Fc');
    // Only the first slash separates: the rest belongs to the name.
    expect(servicePath({ id: 'x', display_name: 'a/b/c' })).toBe('a/b%2Fc');
  });

  it('fall back to the id, which may carry the slash', () => {
    expect(servicePath({ id: 'no-name-service', display_name: null })).toBe('no-name-service');
    expect(servicePath({ id: 'openai/whisper', display_name: 'Whisper' })).toBe('openai/whisper');
    expect(servicePath({ id: '/odd', display_name: null })).toBe('%2Fodd');
  });

  it('fill a custom template', () => {
    expect(serviceHref(fixtureModel('whisper'), 'https://x.example/s/{path}?ref=1')).toBe('https://x.example/s/openai/whisper?ref=1');
  });

  it('are found again from the decoded route segments', () => {
    for (const model of fixtureModels) {
      const segments = servicePathSegments(model);
      expect(findServiceByPath(fixtureModels, segments)?.id).toBe(model.id);
    }
    expect(findServiceByPath(fixtureModels, ['Black-Forest-Labs', 'FLUX-schnell'])?.id).toBe('flux-schnell');
    expect(findServiceByPath(fixtureModels, ['whisper'])?.id).toBe('whisper');
    expect(findServiceByPath(fixtureModels, ['nobody', 'nothing'])).toBeUndefined();
    expect(findServiceByPath(fixtureModels, [])).toBeUndefined();
  });

  it('open the catalogue with the query as q (product-rules §2 Enter)', () => {
    expect(overviewHref('  stable diffusion ')).toBe('/APIs/Overview?q=stable%20diffusion');
    expect(overviewHref('   ')).toBe('/APIs/Overview');
    expect(overviewHref('a&b', '/APIs/Overview?x=1')).toBe('/APIs/Overview?x=1&q=a%26b');
    expect(overviewHref('flux', 'https://x.example/search/{query}')).toBe('https://x.example/search/flux');
  });
});

describe('featured models (product-rules §9)', () => {
  const featured = (idx: Array<number | null | undefined>) =>
    idx.map((sort_idx_featured, i): ModelDescriptor => ({ id: `m${i}`, sort_idx_featured }));

  it('are at most 18', () => {
    expect(FEATURED_LIMIT).toBe(18);
    expect(selectFeatured(featured(Array.from({ length: 30 }, (_, i) => i)))).toHaveLength(18);
  });

  it('sort by sort_idx_featured with missing indexes last, keeping catalogue order on ties', () => {
    const list = featured([5, null, 1, undefined, 3, 1, Number.NaN]);
    expect(selectFeatured(list).map((m) => m.id)).toEqual(['m2', 'm5', 'm4', 'm0', 'm1', 'm3', 'm6']);
    expect(selectFeatured(list, 2).map((m) => m.id)).toEqual(['m2', 'm5']);
  });
});

describe("the user's own models (product-rules §4)", () => {
  it('are those created_by the user, newest first', () => {
    expect(ownModels(fixtureModels, 'user-42').map((m) => m.id)).toEqual(['image', 'image-upscaler', 'fast-image-gen']);
    expect(ownModels(fixtureModels, 'nobody')).toEqual([]);
    expect(ownModels(fixtureModels, null)).toEqual([]);
  });

  it('put undated models last', () => {
    const models: ModelDescriptor[] = [
      { id: 'a', created_by: 'u', created_at: null },
      { id: 'b', created_by: 'u', created_at: '2024-01-01T00:00:00Z' },
      { id: 'c', created_by: 'u', created_at: '2025-01-01T00:00:00Z' },
    ];
    expect(ownModels(models, 'u').map((m) => m.id)).toEqual(['c', 'b', 'a']);
  });
});

describe('tables (product-rules §9)', () => {
  it('default to 10 rows, with 10, 25, 50, 100 and All', () => {
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(PAGE_SIZES).toEqual([10, 25, 50, 100, 'all']);
  });
});
