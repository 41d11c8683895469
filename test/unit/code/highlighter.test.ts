import { afterAll, describe, expect, it } from 'vitest';
import {
  CODE_LANGUAGES,
  CODE_THEMES,
  CodeHighlightError,
  colorKey,
  createCodeHighlighter,
  fontStyleNames,
  getCodeHighlighter,
  highlightCode,
  resetCodeHighlighter,
  withTimeLimit,
} from '../../../src/code';
import { themeLoaders } from '../../../src/code/loaders';
import { themePalette } from '../../../src/code/palette';

const samples: Record<(typeof CODE_LANGUAGES)[number], string> = {
  json: '{"a": [1, true, null, "x"], "b": {"c": -1.5e3}}',
  javascript: 'const a = /re/g; async function f(x) { return `t${x}` } // c\nclass A extends B { #p = 1 }',
  typescript: 'interface A<T> { a?: T } enum E { X = 1 }\n@dec class C implements A<number> { constructor(private readonly x: string) {} }',
  python: 'import os\n@dec\nasync def f(x: int = 1) -> str:\n    """doc"""\n    return f"{x!r}"  # c\nclass A(B): pass',
  html: '<!doctype html><div class="a" onclick="f()"><!-- c --><script>let a=1</script><style>a{color:red}</style></div>',
  css: '@media (min-width: 1px) { a:hover::before { color: #fff !important; --v: calc(1px + 2em); content: "x"; } }',
  scss: '$a: 1px; @mixin m($x) { &:hover { width: $x * 2; } } // c\n.b { @include m(2px); }',
  vue: '<template><div v-if="a" :b="c" @click="d">{{ e }}</div></template>\n<script setup lang="ts">const a: number = 1</script>\n<style scoped>.a{color:red}</style>',
  markdown: '# H\n*it* **b** `c` [l](http://x)\n```js\nlet a\n```\n> q\n- item',
  yaml: 'a: 1\nb: [x, "y"]\n# c\nc: &anc\n  d: true\ne: |\n  text',
  xml: '<?xml version="1.0"?><a b="c"><!-- c --><![CDATA[x]]><d/></a>',
  sql: "SELECT a, COUNT(*) FROM t WHERE b = 'x' AND c > 1 -- c\nGROUP BY a;",
  bash: 'if [ -f "$A" ]; then echo ${B:-x} | grep -E "y" # c\nfi\nfor i in 1 2; do :; done',
  shell: 'export A=1; ls -la $HOME && cat <<EOF\nx\nEOF',
  text: 'plain text, nothing to colour',
};

afterAll(() => resetCodeHighlighter());

describe('highlighter (product-rules §5; shiki core with the JavaScript regex engine)', () => {
  it('async factory plus cached singleton: every caller shares one highlighter', async () => {
    const [a, b] = await Promise.all([getCodeHighlighter(), getCodeHighlighter()]);
    expect(a).toBe(b);
    expect(await getCodeHighlighter()).toBe(a);
    resetCodeHighlighter();
    expect(await getCodeHighlighter()).not.toBe(a);
  });

  it('loads grammars and themes on demand, nothing up front', async () => {
    const highlighter = await createCodeHighlighter();
    expect(highlighter.loadedLanguages()).toEqual(['text']);
    expect(highlighter.loadedThemes()).toEqual([]);
    expect(highlighter.highlightSync('{}', { language: 'json' })).toBeNull();
    await highlighter.highlight('{}');
    expect(highlighter.loadedLanguages()).toEqual(['text', 'json']);
    expect(highlighter.loadedThemes()).toEqual(['dark-plus']);
    expect(highlighter.highlightSync('{"a": 1}')).not.toBeNull();
    // Several blocks asking at once load a grammar once.
    await Promise.all([highlighter.highlight('a: 1', { language: 'yaml' }), highlighter.highlight('b: 2', { language: 'yaml' })]);
    expect(highlighter.loadedLanguages().filter((l) => l === 'yaml')).toHaveLength(1);
    highlighter.dispose();
  });

  it('product-rules §5: refuses a language or theme outside the list before loading anything', async () => {
    const highlighter = await createCodeHighlighter();
    await expect(highlighter.highlight('fn main() {}', { language: 'rust' })).rejects.toMatchObject({
      name: 'CodeHighlightError',
      code: 'unsupported-language',
      message: expect.stringContaining('"rust"'),
    });
    await expect(highlightCode('{}', { theme: 'solarized-dark' })).rejects.toBeInstanceOf(CodeHighlightError);
    expect(highlighter.loadedLanguages()).toEqual(['text']);
    highlighter.dispose();
  });

  it('highlights to plain data, keeping every character and every line', async () => {
    const code = '{\n  "a": 1,\n\n  "b": [true]\n}';
    const result = await highlightCode(code);
    expect(result).toMatchObject({ language: 'json', theme: 'dark-plus', fg: '#D4D4D4', bg: '#1E1E1E' });
    expect(result.lines).toHaveLength(5);
    expect(result.lines.map((line) => line.map((t) => t.content).join('')).join('\n')).toBe(code);
  });

  // 8 themes x 14 languages highlighted: 25 s at load 15, over the default 20 s limit.
  it('CSP: every colour a token of any allowed language gets, in any allowed theme, has a class', { timeout: 90_000 }, async () => {
    // The stylesheet is generated at build time from themePalette(); if a token could get a
    // colour outside it, that token would lose its colour (no inline style is ever written).
    const highlighter = await getCodeHighlighter();
    for (const theme of CODE_THEMES) {
      const palette = themePalette((await themeLoaders[theme]()).default);
      const keys = new Set(palette.tokenColors.map(colorKey));
      for (const language of CODE_LANGUAGES) {
        const result = await highlighter.highlight(samples[language], { language, theme });
        for (const token of result.lines.flat()) {
          if (token.color) expect(keys.has(colorKey(token.color)), `${theme}/${language}: ${token.color}`).toBe(true);
        }
      }
      expect(colorKey(palette.fg)).toBeTruthy();
    }
  });

  it('the colour key and font-style names used for classes', () => {
    expect(colorKey('#D4D4D4')).toBe('d4d4d4');
    expect(colorKey('#6A995580')).toBe('6a995580');
    expect(colorKey('#fff')).toBe('fff');
    expect(colorKey('red')).toBeUndefined();
    expect(colorKey('#12345')).toBeUndefined();
    expect(colorKey(undefined)).toBeUndefined();
    expect(fontStyleNames(0)).toEqual([]);
    expect(fontStyleNames(1)).toEqual(['italic']);
    expect(fontStyleNames(1 | 2 | 8)).toEqual(['italic', 'bold', 'strikethrough']);
    expect(fontStyleNames(-1)).toEqual([]);
  });

  it('product-rules §9: withTimeLimit rejects with a timeout error after the limit, and passes results through', async () => {
    await expect(withTimeLimit(Promise.resolve(7), 500)).resolves.toBe(7);
    await expect(withTimeLimit(Promise.reject(new Error('x')), 500)).rejects.toThrow('x');
    const never = new Promise<never>(() => {});
    await expect(withTimeLimit(never, 20)).rejects.toMatchObject({ name: 'CodeHighlightError', code: 'timeout' });
    await expect(withTimeLimit(Promise.resolve('no limit'), Number.POSITIVE_INFINITY)).resolves.toBe('no limit');
  });
});
