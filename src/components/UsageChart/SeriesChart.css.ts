import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/vars.css';

// Every colour comes from the theme contract, so `--lime-*` on the host re-themes the chart.
export const figure = style({ margin: 0, display: 'grid', gap: vars.space.xs, minWidth: 0 });
export const caption = style({ fontWeight: 700, fontSize: vars.fontSize.sm });
export const svg = style({ width: '100%', height: 'auto', display: 'block', overflow: 'visible' });
export const grid = style({ stroke: vars.color.surfaceRaised, strokeWidth: 1 });
export const axisText = style({ fill: vars.color.textMuted, fontSize: 12, fontFamily: vars.font.body });
export const bar = style({ fill: vars.color.primary, selectors: { '[data-active] > &': { fill: vars.color.primaryHover } } });
export const line = style({ fill: 'none', stroke: vars.color.primary, strokeWidth: 3, strokeLinejoin: 'round', strokeLinecap: 'round' });
export const area = style({ fill: vars.color.primary, fillOpacity: 0.15 });
export const dot = style({ fill: vars.color.surface, stroke: vars.color.primary, strokeWidth: 3 });
export const point = style({ cursor: 'default', outline: 'none' });
export const focusRing = style({
  fill: 'none',
  stroke: vars.color.focusRing,
  strokeWidth: 3,
  visibility: 'hidden',
  selectors: { [`${point}:focus-visible > &`]: { visibility: 'visible' } },
});
export const hit = style({ fill: 'transparent' });
export const tooltipBox = style({ fill: vars.color.surfaceRaised, stroke: vars.color.border, strokeWidth: 1 });
export const tooltipText = style({ fill: vars.color.text, fontSize: 13, fontWeight: 700, fontFamily: vars.font.body });
export const details = style({ fontSize: vars.fontSize.sm });
export const summary = style({
  cursor: 'pointer',
  color: vars.color.primary,
  ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 },
});
/** The value written above a chart's only point. */
export const valueText = style({ fill: vars.color.text, fontSize: 14, fontWeight: 700, fontFamily: vars.font.body });
