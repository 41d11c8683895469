import { normalizeTheme } from 'shiki/core';
import type { ThemeRegistrationAny } from 'shiki/core';
import { colorKey } from './colors';

/** What the stylesheet needs from one theme: its default colours and every colour a token can get. */
export interface ThemePalette {
  name: string;
  type: 'light' | 'dark';
  fg: string;
  bg: string;
  /** Hex colours (as written in the theme) that shiki may give a token. */
  tokenColors: string[];
}

/**
 * Reads a shiki theme the way shiki itself does (`normalizeTheme`: default fg/bg, settings) and
 * lists every colour a token can be painted with. Runs at build time inside `codeThemes.css.ts`,
 * so the theme JSON never reaches the browser bundle; only one class per colour does.
 */
export function themePalette(raw: ThemeRegistrationAny): ThemePalette {
  const theme = normalizeTheme(raw);
  // normalizeTheme swaps non-hex colours for placeholders and maps them back on output; read
  // the originals so the classes match what tokens carry.
  const replacements = new Map(Object.entries(theme.colorReplacements ?? {}));
  const original = (color: string | undefined) => (color ? (replacements.get(color) ?? color) : undefined);
  const colors = new Set<string>();
  const add = (color: string | undefined) => {
    const value = original(color);
    if (value && colorKey(value)) colors.add(value);
  };
  add(theme.fg);
  for (const setting of theme.settings ?? []) {
    add(setting.settings?.foreground);
  }
  return {
    name: theme.name ?? 'unnamed',
    type: theme.type === 'light' ? 'light' : 'dark',
    fg: theme.fg,
    bg: theme.bg,
    tokenColors: [...colors],
  };
}
