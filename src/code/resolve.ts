import { CODE_LANGUAGES, CODE_THEMES, DEFAULT_CODE_LANGUAGE, DEFAULT_CODE_THEME, type CodeLanguage, type CodeTheme } from './constants';
import { CodeHighlightError } from './errors';

const normalise = (value: string) => value.trim().toLowerCase();

export function isCodeLanguage(value: unknown): value is CodeLanguage {
  return typeof value === 'string' && (CODE_LANGUAGES as readonly string[]).includes(value);
}

export function isCodeTheme(value: unknown): value is CodeTheme {
  return typeof value === 'string' && (CODE_THEMES as readonly string[]).includes(value);
}

/**
 * The language to highlight with (product-rules §5). Missing or blank means the default, json; case and
 * surrounding spaces are forgiven; anything outside the allowed list is refused, naming it.
 */
export function resolveCodeLanguage(language?: string | null): CodeLanguage {
  if (language == null || language.trim() === '') return DEFAULT_CODE_LANGUAGE;
  const name = normalise(language);
  if (isCodeLanguage(name)) return name;
  throw new CodeHighlightError(
    'unsupported-language',
    `Unsupported code language "${language}". Allowed languages: ${CODE_LANGUAGES.join(', ')}.`,
  );
}

/** The theme to highlight with (product-rules §5): default dark-plus; others outside the list refused. */
export function resolveCodeTheme(theme?: string | null): CodeTheme {
  if (theme == null || theme.trim() === '') return DEFAULT_CODE_THEME;
  const name = normalise(theme);
  if (isCodeTheme(name)) return name;
  throw new CodeHighlightError('unsupported-theme', `Unsupported code theme "${theme}". Allowed themes: ${CODE_THEMES.join(', ')}.`);
}

/** product-rules §5: empty or whitespace-only code is not highlighted. */
export function isBlankCode(code: string | null | undefined): boolean {
  return code == null || code.trim() === '';
}
