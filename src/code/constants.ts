/**
 * Languages the code display accepts (product-rules §5), in the spec's order. Nothing else is loaded or
 * highlighted; `text` is shiki's built-in plain language and needs no grammar.
 */
export const CODE_LANGUAGES = [
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
] as const;
/** A language the code viewer highlights, one of `CODE_LANGUAGES`. */
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

/** Themes the code display accepts (product-rules §5). */
export const CODE_THEMES = [
  'dark-plus',
  'light-plus',
  'github-dark',
  'github-light',
  'monokai',
  'nord',
  'one-dark-pro',
  'dracula',
] as const;
/** A highlighting theme of the code viewer, one of `CODE_THEMES`. */
export type CodeTheme = (typeof CODE_THEMES)[number];

/** product-rules §5: defaults json and dark-plus. */
export const DEFAULT_CODE_LANGUAGE: CodeLanguage = 'json';
export const DEFAULT_CODE_THEME: CodeTheme = 'dark-plus';

/** product-rules §9: highlighter time limit 500 ms; past it the raw code is shown. */
export const HIGHLIGHT_TIME_LIMIT_MS = 500;
/** product-rules §4/§9: 'Copied!' stays for 2000 ms, then 'Copy code' again. */
export const COPY_CONFIRMATION_MS = 2000;
/** product-rules §9: tooltip offset 10 (px). */
export const TOOLTIP_OFFSET_PX = 10;

/** product-rules §9: default max height 400px and font size 12px. */
export const CODE_MAX_HEIGHT = '400px';
export const CODE_FONT_SIZE = '12px';
/** product-rules §9: sample blocks 14px (12px on medium-and-down), max height 300px. */
export const SAMPLE_MAX_HEIGHT = '300px';
export const SAMPLE_FONT_SIZE = '14px';
export const SAMPLE_FONT_SIZE_COMPACT = '12px';
/**
 * "Medium and down" (product-rules §9) on the usual 0/600/900/1200/1536 breakpoint scale: everything
 * narrower than the md breakpoint's 900px, the same reading as `breakpoints.down('md')`.
 */
export const MEDIUM_AND_DOWN_MEDIA = 'screen and (max-width: 899.98px)';
