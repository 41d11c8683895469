import { style } from '@vanilla-extract/css';
import { vars } from '../../theme/vars.css';

export const sortButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xxs,
  padding: 0,
  font: 'inherit',
  fontWeight: 700,
  color: 'inherit',
  background: 'none',
  border: 0,
  cursor: 'pointer',
  ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 },
});
export const sortIcon = style({ fontSize: vars.fontSize.xs, color: vars.color.textMuted });
export const pager = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.md,
  alignItems: 'center',
  justifyContent: 'space-between',
});
export const inline = style({ display: 'inline-flex', alignItems: 'center', gap: vars.space.xs, fontSize: vars.fontSize.sm });
