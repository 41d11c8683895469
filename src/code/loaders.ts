import type { LanguageRegistration, ThemeRegistrationRaw } from 'shiki/core';
import type { CodeLanguage, CodeTheme } from './constants';

type LanguageModule = { default: LanguageRegistration[] };
type ThemeModule = { default: ThemeRegistrationRaw };

/**
 * One dynamic import per allowed grammar (product-rules §5). Bundlers split each into its own chunk,
 * fetched the first time a block in that language is shown; `text` needs none.
 * Literal specifiers on purpose: bundlers can only split what they can see.
 */
export const languageLoaders: Record<Exclude<CodeLanguage, 'text'>, () => Promise<LanguageModule>> = {
  json: () => import('shiki/langs/json.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  typescript: () => import('shiki/langs/typescript.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  scss: () => import('shiki/langs/scss.mjs'),
  vue: () => import('shiki/langs/vue.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  bash: () => import('shiki/langs/bash.mjs'),
  shell: () => import('shiki/langs/shell.mjs'),
};

/** One dynamic import per allowed theme (product-rules §5). */
export const themeLoaders: Record<CodeTheme, () => Promise<ThemeModule>> = {
  'dark-plus': () => import('shiki/themes/dark-plus.mjs'),
  'light-plus': () => import('shiki/themes/light-plus.mjs'),
  'github-dark': () => import('shiki/themes/github-dark.mjs'),
  'github-light': () => import('shiki/themes/github-light.mjs'),
  monokai: () => import('shiki/themes/monokai.mjs'),
  nord: () => import('shiki/themes/nord.mjs'),
  'one-dark-pro': () => import('shiki/themes/one-dark-pro.mjs'),
  dracula: () => import('shiki/themes/dracula.mjs'),
};
