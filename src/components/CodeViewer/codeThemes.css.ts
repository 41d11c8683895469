// Build-time stylesheet of the code themes. vanilla-extract evaluates this file in Node while
// bundling: it reads the eight theme JSONs of product-rules §5 and emits one class per theme (default
// colours) and one class per token colour. Only the class names reach the browser bundle, so
// highlighted code is painted by static CSS and needs no style attribute (CSP `style-src 'self'`).
import { style, styleVariants } from '@vanilla-extract/css';
import darkPlus from 'shiki/themes/dark-plus.mjs';
import lightPlus from 'shiki/themes/light-plus.mjs';
import githubDark from 'shiki/themes/github-dark.mjs';
import githubLight from 'shiki/themes/github-light.mjs';
import monokai from 'shiki/themes/monokai.mjs';
import nord from 'shiki/themes/nord.mjs';
import oneDarkPro from 'shiki/themes/one-dark-pro.mjs';
import dracula from 'shiki/themes/dracula.mjs';
import type { CodeTheme } from '../../code/constants';
import { colorKey } from '../../code/colors';
import { themePalette, type ThemePalette } from '../../code/palette';

const palettes: Record<CodeTheme, ThemePalette> = {
  'dark-plus': themePalette(darkPlus),
  'light-plus': themePalette(lightPlus),
  'github-dark': themePalette(githubDark),
  'github-light': themePalette(githubLight),
  monokai: themePalette(monokai),
  nord: themePalette(nord),
  'one-dark-pro': themePalette(oneDarkPro),
  dracula: themePalette(dracula),
};

/** Per theme: the block's background, default text colour and colour scheme (for scrollbars). */
export const codeTheme = styleVariants(palettes, (palette) => ({
  background: palette.bg,
  color: palette.fg,
  colorScheme: palette.type,
}));

const tokenColorRules: Record<string, { color: string }> = {};
for (const palette of Object.values(palettes)) {
  for (const color of palette.tokenColors) {
    const key = colorKey(color);
    if (key && !tokenColorRules[key]) tokenColorRules[key] = { color };
  }
}

/** One class per token colour of all themes, keyed by `colorKey(color)`. */
export const tokenColor = styleVariants(tokenColorRules);

/** shiki's font-style bits as classes. */
export const fontStyle = {
  italic: style({ fontStyle: 'italic' }),
  bold: style({ fontWeight: 700 }),
  underline: style({ textDecoration: 'underline' }),
  strikethrough: style({ textDecoration: 'line-through' }),
};
