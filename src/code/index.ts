export * from './constants';
export { CodeHighlightError, isCodeHighlightError } from './errors';
export type { CodeHighlightErrorCode } from './errors';
export { resolveCodeLanguage, resolveCodeTheme, isCodeLanguage, isCodeTheme, isBlankCode } from './resolve';
export { colorKey, fontStyleNames, FONT_STYLE } from './colors';
export type { FontStyleName } from './colors';
export {
  createCodeHighlighter,
  getCodeHighlighter,
  peekCodeHighlighter,
  resetCodeHighlighter,
  highlightCode,
  withTimeLimit,
} from './highlighter';
export type { CodeHighlighter, HighlightedCode, HighlightedToken, HighlightOptions } from './highlighter';
export { copyText, legacyCopy } from './clipboard';
export type { LegacyCopyOptions } from './clipboard';
