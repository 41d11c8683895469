import { style } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '../../theme/vars.css';

export const scroller = style({
  overflowX: 'auto',
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
});

export const table = style({
  width: '100%',
  borderCollapse: 'collapse',
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.sm,
  fontVariantNumeric: 'tabular-nums',
  color: vars.color.text,
});

export const caption = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  textAlign: 'left',
  color: vars.color.textMuted,
  captionSide: 'top',
});

export const th = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  textAlign: 'left',
  fontWeight: 600,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: 'nowrap',
});

export const numeric = style({ selectors: { '&&': { textAlign: 'right' } } });

export const row = recipe({
  base: {},
  variants: {
    selected: {
      true: { background: vars.color.surfaceRaised, fontWeight: 700 },
      false: {},
    },
  },
  defaultVariants: { selected: false },
});

export const td = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  textAlign: 'left',
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: 'nowrap',
});

export { visuallyHidden } from '../../theme/a11y.css';
