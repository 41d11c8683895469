import { style } from '@vanilla-extract/css';
import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';
import { vars } from '../../theme/vars.css';

export const list = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))',
  gap: vars.space.lg,
  margin: 0,
  padding: 0,
  listStyle: 'none',
  fontFamily: vars.font.body,
  color: vars.color.text,
});

export const item = style({ display: 'flex' });

export const card = recipe({
  base: {
    boxSizing: 'border-box',
    position: 'relative',
    display: 'flex',
    flexDirection: 'column',
    gap: vars.space.md,
    width: '100%',
    padding: vars.space.lg,
    borderRadius: vars.radius.lg,
    border: `1px solid ${vars.color.border}`,
    background: vars.color.surface,
  },
  variants: {
    highlighted: {
      true: { borderColor: vars.color.primary, boxShadow: `0 0 0 1px ${vars.color.primary}, ${vars.shadow.popup}` },
      false: {},
    },
  },
  defaultVariants: { highlighted: false },
});
export type CardVariants = RecipeVariants<typeof card>;

export const header = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: vars.space.sm });

export const title = style({ margin: 0, fontSize: vars.fontSize.lg, fontWeight: 700 });

export const badge = style({
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  fontSize: vars.fontSize.xs,
  fontWeight: 700,
  whiteSpace: 'nowrap',
});

export const priceBlock = style({ display: 'grid', gap: vars.space.xxs });

export const price = style({
  display: 'flex',
  alignItems: 'baseline',
  flexWrap: 'wrap',
  gap: vars.space.xs,
  margin: 0,
  fontVariantNumeric: 'tabular-nums',
});

export const prefix = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });
export const amount = style({ fontSize: vars.fontSize.xxl, fontWeight: 800, lineHeight: 1 });
export const cents = style({ fontSize: vars.fontSize.lg, fontWeight: 700 });
export const sub = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const strike = style({ fontSize: vars.fontSize.md, color: vars.color.textMuted, textDecoration: 'line-through' });

export const features = style({
  display: 'grid',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: 'none',
  flex: 1,
  alignContent: 'start',
  fontSize: vars.fontSize.sm,
});

export const feature = style({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: vars.space.sm, alignItems: 'start' });

export const check = style({ color: vars.color.primary, marginTop: '0.15em' });

export const button = recipe({
  base: {
    padding: `${vars.space.sm} ${vars.space.lg}`,
    borderRadius: vars.radius.pill,
    fontFamily: vars.font.body,
    fontSize: vars.fontSize.md,
    fontWeight: 700,
    cursor: 'pointer',
    ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
    ':disabled': { cursor: 'not-allowed', opacity: 0.6 },
  },
  variants: {
    emphasis: {
      primary: {
        border: `1px solid ${vars.color.primary}`,
        background: vars.color.primary,
        color: vars.color.onPrimary,
        ':hover': { background: vars.color.primaryHover },
      },
      secondary: {
        border: `1px solid ${vars.color.primary}`,
        background: 'transparent',
        color: vars.color.primary,
        ':hover': { background: vars.color.surfaceRaised },
      },
    },
  },
  defaultVariants: { emphasis: 'secondary' },
});

export { visuallyHidden } from '../../theme/a11y.css';
