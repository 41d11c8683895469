import { style } from '@vanilla-extract/css';
import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';
import { widgetCard } from '../../theme/card.css';
import { formControls } from '../../theme/controls.css';
import { vars } from '../../theme/vars.css';

export const root = widgetCard;

export const title = style({ margin: 0, fontSize: vars.fontSize.lg, fontWeight: 700 });

export const fieldset = style({ margin: 0, padding: 0, border: 0, minWidth: 0 });

export const legend = style({
  padding: 0,
  marginBottom: vars.space.sm,
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
  color: vars.color.textMuted,
});

export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm });

/** The radio stays in the tab order and in the accessibility tree; only the chip is seen. */
export const radio = style({
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
  opacity: 0,
});

export const chip = recipe({
  base: {
    boxSizing: 'border-box',
    position: 'relative',
    display: 'inline-flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    minWidth: '6.5rem',
    padding: `${vars.space.xs} ${vars.space.md}`,
    borderRadius: vars.radius.pill,
    border: `1px solid ${vars.color.border}`,
    cursor: 'pointer',
    userSelect: 'none',
    transition: 'background-color 120ms, border-color 120ms',
    selectors: {
      '&:has(input:focus-visible)': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
      '&:hover': { borderColor: vars.color.primary },
    },
    '@media': { '(prefers-reduced-motion: reduce)': { transition: 'none' } },
  },
  variants: {
    checked: {
      true: { background: vars.color.primary, color: vars.color.onPrimary, borderColor: vars.color.primary },
      false: { background: vars.color.surface, color: vars.color.text },
    },
  },
  defaultVariants: { checked: false },
});
export type ChipVariants = RecipeVariants<typeof chip>;

export const chipMemory = style({ fontWeight: 700, fontSize: vars.fontSize.sm });
export const chipName = style({ fontSize: vars.fontSize.xs });

export const fields = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))',
  gap: vars.space.md,
});

export const field = style({ display: 'grid', gap: vars.space.xs, alignContent: 'start' });

export const label = style({ fontSize: vars.fontSize.sm, fontWeight: 600, color: vars.color.textMuted });

export const input = recipe({
  base: [formControls.text, { fontVariantNumeric: 'tabular-nums' }],
  variants: {
    invalid: {
      true: { borderColor: vars.color.onDanger, boxShadow: `inset 0 0 0 1px ${vars.color.onDanger}` },
      false: {},
    },
  },
  defaultVariants: { invalid: false },
});

export { fieldError } from '../../theme/forms.css';

export const estimate = style({
  display: 'grid',
  gap: vars.space.xxs,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
});

export const estimateLabel = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const estimateFigure = recipe({
  base: { fontSize: vars.fontSize.xl, fontWeight: 800, fontVariantNumeric: 'tabular-nums', lineHeight: 1.2 },
  variants: {
    state: {
      valid: { color: vars.color.primary },
      invalid: { fontSize: vars.fontSize.md, fontWeight: 600, color: vars.color.text },
    },
  },
  defaultVariants: { state: 'valid' },
});

export const perMonth = style({ marginLeft: vars.space.xs, fontSize: vars.fontSize.sm, fontWeight: 400, color: vars.color.textMuted });
export const estimateOn = style({ fontSize: vars.fontSize.sm, color: vars.color.textMuted });

export const empty = style({ margin: 0, color: vars.color.textMuted });

export { visuallyHidden } from '../../theme/a11y.css';
