/**
 * Token colours become class names, never inline styles, so the viewer works under a
 * Content-Security-Policy of `style-src 'self'`. Both the build-time stylesheet
 * (`codeThemes.css.ts`) and the renderer derive the class key from the colour with this one
 * function, so the two cannot disagree.
 *
 * `#D4D4D4` -> `d4d4d4`, `#6A995580` -> `6a995580`. Anything that is not a hex colour gets no key.
 */
export function colorKey(color: string | undefined | null): string | undefined {
  if (!color) return undefined;
  const match = /^#([0-9a-f]{3,8})$/i.exec(color.trim());
  if (!match || ![3, 4, 6, 8].includes(match[1]!.length)) return undefined;
  return match[1]!.toLowerCase();
}

/** shiki's FontStyle bit flags (`@shikijs/types`), kept here so the renderer needs no shiki import. */
export const FONT_STYLE = { italic: 1, bold: 2, underline: 4, strikethrough: 8 } as const;
export type FontStyleName = keyof typeof FONT_STYLE;

/** The font-style names set in a shiki `fontStyle` bit field. */
export function fontStyleNames(fontStyle: number | undefined): FontStyleName[] {
  if (!fontStyle || fontStyle < 0) return [];
  return (Object.keys(FONT_STYLE) as FontStyleName[]).filter((name) => (fontStyle & FONT_STYLE[name]) !== 0);
}
