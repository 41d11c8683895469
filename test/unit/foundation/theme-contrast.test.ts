import { describe, expect, it } from 'vitest';
import { contrastPairs, darkValues, lightValues, uiContrastPairs } from '../../../src/theme/tokens';
import { contrastRatio } from '../../../src/theme/contrast';

describe('theme contrast (WCAG 2.2 AA)', () => {
  it('computes the reference ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  for (const [name, theme] of [
    ['dark', darkValues],
    ['light', lightValues],
  ] as const) {
    for (const [text, background] of contrastPairs) {
      it(`${name}: ${text} on ${background} is at least 4.5:1`, () => {
        expect(contrastRatio(theme.color[text], theme.color[background])).toBeGreaterThanOrEqual(4.5);
      });
    }
    for (const [ui, background] of uiContrastPairs) {
      it(`${name}: ${ui} against ${background} is at least 3:1 (1.4.11)`, () => {
        expect(contrastRatio(theme.color[ui], theme.color[background])).toBeGreaterThanOrEqual(3);
      });
    }
  }

  it('dark is the default: lime primary on a very dark purple background (product-rules §1)', () => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(darkValues.color.background.slice(i, i + 2), 16)) as [number, number, number];
    expect(b).toBeGreaterThan(g);
    expect(r).toBeGreaterThan(g);
    expect(Math.max(r, g, b)).toBeLessThan(40);
    const [pr, pg, pb] = [1, 3, 5].map((i) => parseInt(darkValues.color.primary.slice(i, i + 2), 16)) as [number, number, number];
    expect(pg).toBeGreaterThan(pr);
    expect(pr).toBeGreaterThan(pb);
  });
});
