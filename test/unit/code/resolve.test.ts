import { describe, expect, it } from 'vitest';
import {
  CODE_LANGUAGES,
  CODE_THEMES,
  CodeHighlightError,
  DEFAULT_CODE_LANGUAGE,
  DEFAULT_CODE_THEME,
  COPY_CONFIRMATION_MS,
  HIGHLIGHT_TIME_LIMIT_MS,
  TOOLTIP_OFFSET_PX,
  CODE_MAX_HEIGHT,
  CODE_FONT_SIZE,
  SAMPLE_FONT_SIZE,
  SAMPLE_FONT_SIZE_COMPACT,
  SAMPLE_MAX_HEIGHT,
  isBlankCode,
  resolveCodeLanguage,
  resolveCodeTheme,
} from '../../../src/code';
import { codeStrings } from '../../../src/config/strings/code';

describe('code display rules (product-rules §5, §9)', () => {
  it('product-rules §5: accepts exactly the fifteen languages', () => {
    expect([...CODE_LANGUAGES]).toEqual([
      'json',
      'javascript',
      'typescript',
      'python',
      'html',
      'css',
      'scss',
      'vue',
      'markdown',
      'yaml',
      'xml',
      'sql',
      'bash',
      'shell',
      'text',
    ]);
    for (const language of CODE_LANGUAGES) expect(resolveCodeLanguage(language)).toBe(language);
  });

  it('product-rules §5: accepts exactly the eight themes', () => {
    expect([...CODE_THEMES]).toEqual([
      'dark-plus',
      'light-plus',
      'github-dark',
      'github-light',
      'monokai',
      'nord',
      'one-dark-pro',
      'dracula',
    ]);
    for (const theme of CODE_THEMES) expect(resolveCodeTheme(theme)).toBe(theme);
  });

  it('product-rules §5: defaults are json and dark-plus', () => {
    expect(DEFAULT_CODE_LANGUAGE).toBe('json');
    expect(DEFAULT_CODE_THEME).toBe('dark-plus');
    expect(resolveCodeLanguage()).toBe('json');
    expect(resolveCodeLanguage('')).toBe('json');
    expect(resolveCodeTheme(undefined)).toBe('dark-plus');
    expect(resolveCodeTheme(' ')).toBe('dark-plus');
  });

  it('forgives case and surrounding spaces', () => {
    expect(resolveCodeLanguage(' TypeScript ')).toBe('typescript');
    expect(resolveCodeTheme('Dracula')).toBe('dracula');
  });

  it('product-rules §5: refuses anything else with a clear message naming the input and the allowed list', () => {
    for (const language of ['rust', 'js', 'ts', 'sh', 'jsx', 'c++', '__proto__', 'constructor']) {
      const attempt = () => resolveCodeLanguage(language);
      expect(attempt).toThrow(CodeHighlightError);
      expect(attempt).toThrow(
        `Unsupported code language "${language}". Allowed languages: json, javascript, typescript, python, html, css, scss, vue, markdown, yaml, xml, sql, bash, shell, text.`,
      );
    }
    try {
      resolveCodeTheme('solarized-dark');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CodeHighlightError);
      expect(error).toMatchObject({ name: 'CodeHighlightError', code: 'unsupported-theme' });
      expect((error as Error).message).toBe(
        'Unsupported code theme "solarized-dark". Allowed themes: dark-plus, light-plus, github-dark, github-light, monokai, nord, one-dark-pro, dracula.',
      );
    }
  });

  it('product-rules §5: empty or whitespace-only code is blank', () => {
    for (const code of ['', ' ', '\n\t \r\n', null, undefined]) expect(isBlankCode(code)).toBe(true);
    for (const code of ['{}', ' a ', '0']) expect(isBlankCode(code)).toBe(false);
  });

  it('product-rules §9: constants of the code display', () => {
    expect(HIGHLIGHT_TIME_LIMIT_MS).toBe(500);
    expect(COPY_CONFIRMATION_MS).toBe(2000);
    expect(TOOLTIP_OFFSET_PX).toBe(10);
    expect(CODE_MAX_HEIGHT).toBe('400px');
    expect(CODE_FONT_SIZE).toBe('12px');
    expect(SAMPLE_FONT_SIZE).toBe('14px');
    expect(SAMPLE_FONT_SIZE_COMPACT).toBe('12px');
    expect(SAMPLE_MAX_HEIGHT).toBe('300px');
  });

  it('product-rules §4: texts letter for letter', () => {
    expect(codeStrings).toMatchObject({
      loading: 'Highlighting code...',
      error: 'Failed to highlight code',
      empty: 'No code to display',
      copy: 'Copy code',
      copied: 'Copied!',
    });
  });
});
