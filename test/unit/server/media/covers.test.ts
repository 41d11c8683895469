import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { darkValues } from '../../../../src/theme/tokens';
import {
  categoryIds,
  coverPath,
  coverSvg,
  coverVersion,
  escapeXml,
  serviceCover,
  wrapText,
  type CoverSubject,
} from '../../../../reference-app/server/media/covers';
import { SEED_CATEGORIES } from '../../../../reference-app/server/seed/categories';
import { NOT_COVERS, exampleCover, realExampleCover } from '../../../../reference-app/server/media/examples';
import { SEED_MODELS } from '../../../../reference-app/server/seed/models';

// The designed covers (issue 50, item 1; docs/security.md, "Covers"): drawn from a service's
// category, name and id, the same bytes every time, one of its own per service, and every
// name stays text.

const { window } = new JSDOM('');

/** The SVG parsed as XML: throws on a document that is not well-formed. */
function parse(svg: string) {
  const parsed = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(parsed.getElementsByTagName('parsererror')).toHaveLength(0);
  return parsed;
}

/** A seed service as the cover route draws it: its first known category. */
function subjectOf(model: (typeof SEED_MODELS)[number]): CoverSubject {
  const id = categoryIds(model.category).find((c) => SEED_CATEGORIES.some((s) => s.id === c));
  const category = SEED_CATEGORIES.find((c) => c.id === id);
  return {
    id: model.id,
    name: model.name === undefined ? model.id : model.name,
    category: category ? { id: category.id, title: category.title } : null,
  };
}

describe('coverSvg', () => {
  it('draws the same bytes for the same service', () => {
    const subject = subjectOf(SEED_MODELS[0]!);
    expect(coverSvg(subject)).toBe(coverSvg({ ...subject }));
  });

  it('draws a cover of its own for every seeded service, in the theme palette, with its name and category', () => {
    const covers = SEED_MODELS.map((model) => coverSvg(subjectOf(model)));
    expect(new Set(covers).size).toBe(SEED_MODELS.length);
    const flux = parse(coverSvg(subjectOf(SEED_MODELS.find((m) => m.id === 'black-forest-labs/flux-schnell')!)));
    const texts = [...flux.getElementsByTagName('text')].map((t) => t.textContent);
    expect(texts).toEqual(['GENERATE IMAGES', 'black-forest-labs', 'flux-schnell']);
    const svg = flux.documentElement.outerHTML;
    for (const colour of [darkValues.color.background, darkValues.color.primary, darkValues.color.text]) expect(svg).toContain(colour);
  });

  it('differs between two services of one name and category (the colour comes from the id)', () => {
    const category = { id: 'llm', title: 'Generate text' };
    const a = coverSvg({ id: 'team-a/chat', name: 'Chat', category });
    const b = coverSvg({ id: 'team-b/chat', name: 'Chat', category });
    expect(a).not.toBe(b);
    expect(/hsl\((\d+)/.exec(a)![1]).not.toBe(/hsl\((\d+)/.exec(b)![1]);
  });

  it('keeps a hostile name as text: no element, no attribute, the document well-formed', () => {
    const name = '<script>alert(1)</script><image href="https://evil.example/x.png"/> & "quotes"';
    const svg = coverSvg({ id: 'x', name, category: { id: 'llm', title: 'Generate <b>text</b>' } });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<image');
    expect(svg).not.toContain('<b>');
    const doc = parse(svg);
    expect(doc.getElementsByTagName('script')).toHaveLength(0);
    expect(doc.getElementsByTagName('image')).toHaveLength(0);
    const shown = [...doc.getElementsByTagName('text')].map((t) => t.textContent).join(' ');
    expect(shown).toContain('<script>alert(1)</script>');
    expect(shown).toContain('GENERATE <B>TEXT</B>');
    expect(doc.documentElement.getAttribute('aria-label')).toBe(`${name}, Generate <b>text</b>`);
  });

  it('drops characters XML forbids, so any name gives a well-formed document', () => {
    const svg = coverSvg({ id: 'y', name: 'bell\u0007 nul\u0000 lone\ud800 ok', category: null });
    const doc = parse(svg);
    expect([...doc.getElementsByTagName('text')].map((t) => t.textContent)).toEqual(['AI SERVICE', 'bell nul lone ok']);
  });

  it('draws the id for a service without a name, and wraps a long one in two lines with an ellipsis', () => {
    const doc = parse(coverSvg({ id: 'untitled-service-7f3a', name: null, category: null }));
    expect([...doc.getElementsByTagName('text')].map((t) => t.textContent)).toEqual(['AI SERVICE', 'untitled-service-7f3a']);
    expect(wrapText('A very long service name that goes on and on past two lines of text', 20, 2)).toEqual([
      'A very long service',
      'name that goes on…',
    ]);
    expect(escapeXml("a'b")).toBe('a&#39;b');
  });
});

describe('serviceCover: what a service shows', () => {
  const row = { id: 'owner/name', display_name: 'Name', model_category: 'llm' };

  it('keeps a picture the platform serves itself: an upload, a real example', () => {
    expect(serviceCover({ ...row, display_img_url: '/media/files/abc123.webp' })).toBe('/media/files/abc123.webp');
    expect(serviceCover({ ...row, display_img_url: realExampleCover('lime-cutout')! })).toBe('/media/examples/lime-cutout-cover.webp');
  });

  it('draws the designed cover for another host, a placeholder, any other path and a demo output', () => {
    const designed = coverPath(row);
    expect(designed).toBe(`/media/covers/owner%2Fname.svg?v=${coverVersion(row)}`);
    for (const stored of [
      null,
      '',
      'placeholder',
      'https://replicate.delivery/pbxt/ideogram-v2/cover.webp',
      'https://placehold.co/600x400?text=placeholder',
      '//evil.example/x.png',
      '/\\evil.example/x.png',
      '/v1/auth/logout',
      '/media/files/placeholder.png',
      '/media/models/owner-name.svg',
      '/media/examples/../files/x.png',
      exampleCover('text2img')!,
      exampleCover('llm')!,
      exampleCover('lime-whisper')!,
    ]) {
      expect(serviceCover({ ...row, display_img_url: stored }), String(stored)).toBe(designed);
    }
  });

  it('counts as no cover every demo output and text drawing, and nothing a real model drew', () => {
    expect(NOT_COVERS.has(exampleCover('text2img')!)).toBe(true);
    expect(NOT_COVERS.has(exampleCover('embeddings')!)).toBe(true);
    expect(NOT_COVERS.has(exampleCover('lime-whisper')!)).toBe(true); // a transcript drawn as a picture
    for (const kind of ['lime-ocr', 'lime-voice', 'lime-cutout', 'lime-vision']) {
      expect(realExampleCover(kind), kind).toBe(exampleCover(kind));
      expect(NOT_COVERS.has(exampleCover(kind)!), kind).toBe(false);
    }
  });

  it('versions the URL by what the cover shows', () => {
    expect(coverVersion(row)).toBe(coverVersion({ ...row }));
    expect(coverVersion({ ...row, display_name: 'Other' })).not.toBe(coverVersion(row));
    expect(coverVersion({ ...row, model_category: 'tts' })).not.toBe(coverVersion(row));
  });

  it('reads every stored shape of model_category', () => {
    expect(categoryIds('llm')).toEqual(['llm']);
    expect(categoryIds(['llm', '', 3])).toEqual(['llm']);
    expect(categoryIds({ tts: {}, music: null })).toEqual(['tts', 'music']);
    expect(categoryIds(null)).toEqual([]);
  });
});
