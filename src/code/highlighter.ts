import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import type { CodeLanguage, CodeTheme } from './constants';
import { CodeHighlightError, isCodeHighlightError } from './errors';
import { languageLoaders, themeLoaders } from './loaders';
import { resolveCodeLanguage, resolveCodeTheme } from './resolve';

/** One token of highlighted code: its text, its colour as the theme wrote it, shiki's font-style bits. */
export interface HighlightedToken {
  content: string;
  /** Hex colour, or undefined for the theme's default foreground. */
  color?: string;
  /** shiki FontStyle bits: 1 italic, 2 bold, 4 underline, 8 strikethrough. */
  fontStyle: number;
}

/** Highlighted code as plain data; the component turns colours into classes. */
export interface HighlightedCode {
  language: CodeLanguage;
  theme: CodeTheme;
  /** The theme's default foreground and background. */
  fg: string;
  bg: string;
  lines: HighlightedToken[][];
}

export interface HighlightOptions {
  /** One of product-rules §5's languages. @default 'json' */
  language?: string;
  /** One of product-rules §5's themes. @default 'dark-plus' */
  theme?: string;
  /**
   * Told when the grammar and theme are in and tokenising starts: from then on the highlight
   * always finishes, so the code viewer stops its time limit's clock (timeLimit.ts).
   */
  onTokenising?: () => void;
}

export interface CodeHighlighter {
  /** Where tokenising runs: a Web Worker (the shared highlighter where possible) or the page; unset on a host's own highlighter. */
  readonly runsIn?: 'worker' | 'page';
  /** Loads the grammar and theme on first use, then tokenises. Refuses what product-rules §5 does not allow. */
  highlight(code: string, options?: HighlightOptions): Promise<HighlightedCode>;
  /** Tokenises at once when the grammar and theme are already loaded; null when they are not. */
  highlightSync(code: string, options?: HighlightOptions): HighlightedCode | null;
  /** Languages loaded so far (spec names only). */
  loadedLanguages(): CodeLanguage[];
  /** Themes loaded so far. */
  loadedThemes(): CodeTheme[];
  dispose(): void;
}

function wrap(error: unknown, what: string): CodeHighlightError {
  if (isCodeHighlightError(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new CodeHighlightError('failed', `Could not ${what}: ${detail}`, { cause: error });
}

/**
 * Async factory: a shiki core highlighter in the calling thread (the highlighter worker's, or
 * the page's where no worker can run; shared.ts), on the JavaScript regex engine (no WebAssembly, so no
 * `wasm-unsafe-eval` in the CSP) with nothing preloaded. Grammars and themes of product-rules §5 load on
 * demand, each at most once even when several blocks ask at the same time.
 */
export async function createCodeHighlighter(): Promise<CodeHighlighter> {
  let core: HighlighterCore;
  try {
    core = await createHighlighterCore({ engine: createJavaScriptRegexEngine(), langs: [], themes: [] });
  } catch (error) {
    throw wrap(error, 'create the code highlighter');
  }
  const languages = new Map<CodeLanguage, Promise<void>>();
  const themes = new Map<CodeTheme, Promise<void>>();
  const loadedLanguages = new Set<CodeLanguage>(['text']);
  const loadedThemes = new Set<CodeTheme>();

  const loadLanguage = (language: CodeLanguage): Promise<void> => {
    if (loadedLanguages.has(language)) return Promise.resolve();
    let pending = languages.get(language);
    if (!pending) {
      const loader = languageLoaders[language as Exclude<CodeLanguage, 'text'>];
      pending = loader()
        .then((module) => core.loadLanguage(module.default))
        .then(() => void loadedLanguages.add(language))
        .catch((error: unknown) => {
          languages.delete(language); // a failed chunk load may succeed next time
          throw wrap(error, `load the ${language} grammar`);
        });
      languages.set(language, pending);
    }
    return pending;
  };

  const loadTheme = (theme: CodeTheme): Promise<void> => {
    if (loadedThemes.has(theme)) return Promise.resolve();
    let pending = themes.get(theme);
    if (!pending) {
      pending = themeLoaders[theme]()
        .then((module) => core.loadTheme(module.default))
        .then(() => void loadedThemes.add(theme))
        .catch((error: unknown) => {
          themes.delete(theme);
          throw wrap(error, `load the ${theme} theme`);
        });
      themes.set(theme, pending);
    }
    return pending;
  };

  const tokenise = (code: string, language: CodeLanguage, theme: CodeTheme): HighlightedCode => {
    try {
      const result = core.codeToTokens(code, { lang: language, theme });
      return {
        language,
        theme,
        fg: result.fg ?? '',
        bg: result.bg ?? '',
        lines: result.tokens.map((line) =>
          line.map((token) => ({ content: token.content, color: token.color, fontStyle: token.fontStyle ?? 0 })),
        ),
      };
    } catch (error) {
      throw wrap(error, `highlight ${language} code`);
    }
  };

  return {
    runsIn: 'page',
    async highlight(code, options = {}) {
      const language = resolveCodeLanguage(options.language);
      const theme = resolveCodeTheme(options.theme);
      await Promise.all([loadLanguage(language), loadTheme(theme)]);
      options.onTokenising?.();
      return tokenise(code, language, theme);
    },
    highlightSync(code, options = {}) {
      const language = resolveCodeLanguage(options.language);
      const theme = resolveCodeTheme(options.theme);
      if (!loadedLanguages.has(language) || !loadedThemes.has(theme)) return null;
      return tokenise(code, language, theme);
    },
    loadedLanguages: () => [...loadedLanguages],
    loadedThemes: () => [...loadedThemes],
    dispose: () => core.dispose(),
  };
}
