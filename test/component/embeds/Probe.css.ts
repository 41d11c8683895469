import { style } from '@vanilla-extract/css';
import { vars } from '../../../src/theme/vars.css';

export const input = style({
  display: 'block',
  width: '240px',
  padding: vars.space.sm,
  color: vars.color.text,
  background: vars.color.surface,
  border: `2px solid ${vars.color.primary}`,
});

export const menu = style({
  position: 'absolute',
  margin: 0,
  padding: 0,
  listStyle: 'none',
  background: vars.color.surface,
  zIndex: vars.zIndex.popup,
});

export const item = style({
  padding: vars.space.sm,
  selectors: { '&[aria-selected="true"]': { background: vars.color.surfaceRaised } },
});

export const surface = style({ background: vars.color.background, padding: vars.space.sm });
