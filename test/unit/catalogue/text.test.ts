// Text shaping of product-rules §2 (header search rows), §3 (Unknown Model, fallback image), §9.
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import {
  FALLBACK_IMAGE,
  descriptionPreview,
  displayName,
  formatRuns,
  isPlaceholderImage,
  modelImage,
  sanitizeDescriptionHtml,
  setServerPurifier,
} from '../../../src/catalogue';
import { abbreviateRuns, highlightSegments, htmlToText, stripHtml, truncate } from '../../../src/catalogue/text';

describe('run counts (product-rules §2, §9)', () => {
  it("is 'N runs' below 1e3", () => {
    expect(formatRuns(0)).toBe('0 runs');
    expect(formatRuns(1)).toBe('1 runs');
    expect(formatRuns(999)).toBe('999 runs');
  });

  it("abbreviates 'X.XK runs', 'X.XM runs', 'X.XB runs' at 1e3, 1e6, 1e9", () => {
    expect(formatRuns(1000)).toBe('1.0K runs');
    expect(formatRuns(12_345)).toBe('12.3K runs');
    expect(formatRuns(999_949)).toBe('999.9K runs');
    expect(formatRuns(1_000_000)).toBe('1.0M runs');
    expect(formatRuns(78_900_000)).toBe('78.9M runs');
    expect(formatRuns(1_000_000_000)).toBe('1.0B runs');
    expect(formatRuns(1_250_000_000)).toBe('1.3B runs');
    expect(formatRuns(4_200_000_000_000)).toBe('4200.0B runs');
  });

  it("never shows '1000.0K': a value rounding up to 1000 of a unit moves to the next", () => {
    expect(abbreviateRuns(999_950)).toBe('1.0M');
    expect(abbreviateRuns(999_999_999)).toBe('1.0B');
  });

  it('counts missing, negative or invalid values as 0', () => {
    expect(formatRuns(null)).toBe('0 runs');
    expect(formatRuns(undefined)).toBe('0 runs');
    expect(formatRuns(-5)).toBe('0 runs');
    expect(formatRuns(Number.NaN)).toBe('0 runs');
  });

  it('takes the template from the strings table', () => {
    expect(formatRuns(1500, '{count} Ausführungen')).toBe('1.5K Ausführungen');
  });
});

describe('descriptions (product-rules §2: sanitised as HTML, cut to 80 with an ellipsis)', () => {
  it('strips markup, drops scripts and styles, decodes entities, collapses whitespace', () => {
    expect(stripHtml('<p>Fast <b>text-to-image</b></p><p>model</p>')).toBe('Fast text-to-image model');
    expect(stripHtml('Hi<script>alert(1)</script> there<style>p{}</style>')).toBe('Hi there');
    expect(stripHtml('Tom &amp; Jerry &lt;3 &#x1F600; &#65;&nbsp;b')).toBe('Tom & Jerry <3 😀 A b');
    expect(stripHtml('a < b and c > d')).toBe('a < b and c > d');
    expect(stripHtml(null)).toBe('');
  });

  it('without a DOM, htmlToText and sanitizeDescriptionHtml fall back to safe text', () => {
    expect(htmlToText('<img src=x onerror=alert(1)>Safe <i>text</i>')).toBe('Safe text');
    expect(sanitizeDescriptionHtml('<b onclick="x()">Bold</b> & <script>bad()</script>')).toBe('Bold &amp;');
  });

  it('with a server DOM (as server-rendered pages have), sanitizeDescriptionHtml keeps the allowed markup', () => {
    setServerPurifier(createDOMPurify(new JSDOM('').window as unknown as Window & typeof globalThis));
    try {
      expect(
        sanitizeDescriptionHtml(
          '<p class="x" style="color:red">A <i>b</i> <a href="https://example.com" onclick="x()">c</a></p><script>bad()</script><img src=x onerror=y()><ul><li>d</li></ul>',
        ),
      ).toBe('<p>A <i>b</i> <a href="https://example.com">c</a></p><ul><li>d</li></ul>');
      expect(sanitizeDescriptionHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    } finally {
      setServerPurifier(null);
    }
    expect(sanitizeDescriptionHtml('<i>b</i>')).toBe('b');
    // A DOMPurify without a DOM is refused: the text fallback stays.
    setServerPurifier(createDOMPurify());
    expect(sanitizeDescriptionHtml('<i>b</i>')).toBe('b');
    setServerPurifier(null);
  });

  it('cuts to 80 characters and appends an ellipsis only when longer', () => {
    const long = 'x'.repeat(100);
    expect(truncate(long, 80)).toBe(`${'x'.repeat(80)}…`);
    expect(truncate('x'.repeat(80), 80)).toBe('x'.repeat(80));
    expect(truncate('word '.repeat(20), 80).endsWith(' …')).toBe(false);
  });

  it('counts characters, not UTF-16 units, so emoji are never split', () => {
    const text = '😀'.repeat(81);
    expect(truncate(text, 80)).toBe(`${'😀'.repeat(80)}…`);
  });

  it('sanitises first, then cuts (markup never counts towards the 80)', () => {
    const html = `<p>${'<b>ab</b>'.repeat(50)}</p>`;
    expect(descriptionPreview({ model_desc: html }, 80)).toBe(`${'ab'.repeat(40)}…`);
    expect(descriptionPreview({ model_desc: null }, 80)).toBe('');
  });
});

describe("display names (product-rules §3: 'Unknown Model')", () => {
  it('uses the trimmed display name, else the fallback', () => {
    expect(displayName({ display_name: ' Flux ' })).toBe('Flux');
    expect(displayName({ display_name: null })).toBe('Unknown Model');
    expect(displayName({ display_name: '   ' })).toBe('Unknown Model');
    expect(displayName({ display_name: undefined }, 'Modèle inconnu')).toBe('Modèle inconnu');
  });
});

describe('images (product-rules §3, §9: fallback 404 image)', () => {
  it('treats missing, blank and placeholder images as none', () => {
    expect(isPlaceholderImage(null)).toBe(true);
    expect(isPlaceholderImage('  ')).toBe(true);
    expect(isPlaceholderImage('https://cdn.example/img/placeholder.png')).toBe(true);
    expect(isPlaceholderImage('https://cdn.example/Placeholder-400.webp?x=1')).toBe(true);
    expect(isPlaceholderImage('https://cdn.example/placeholders/real.png')).toBe(false);
    expect(isPlaceholderImage('https://cdn.example/flux.png')).toBe(false);
  });

  it('bundles the fallback as an SVG data URI showing 404', () => {
    expect(FALLBACK_IMAGE.startsWith('data:image/svg+xml,')).toBe(true);
    expect(decodeURIComponent(FALLBACK_IMAGE)).toContain('>404<');
    expect(modelImage({ display_img_url: null })).toBe(FALLBACK_IMAGE);
    expect(modelImage({ display_img_url: ' https://x/y.png ' })).toBe('https://x/y.png');
  });
});

describe('highlighting', () => {
  it('marks the query and its words case-insensitively, merging overlaps', () => {
    expect(highlightSegments('Stable Video Diffusion', 'video diff')).toEqual([
      { text: 'Stable ', match: false },
      { text: 'Video Diff', match: true },
      { text: 'usion', match: false },
    ]);
    expect(highlightSegments('flux-schnell by BFL', 'FLUX bfl')).toEqual([
      { text: 'flux', match: true },
      { text: '-schnell by ', match: false },
      { text: 'BFL', match: true },
    ]);
  });

  it('ignores one-character words and regex characters in the query', () => {
    expect(highlightSegments('a (b) c', 'a')).toEqual([{ text: 'a (b) c', match: false }]);
    expect(highlightSegments('a (b) c', '(b)')).toEqual([
      { text: 'a ', match: false },
      { text: '(b)', match: true },
      { text: ' c', match: false },
    ]);
    expect(highlightSegments('', 'x')).toEqual([]);
  });
});
