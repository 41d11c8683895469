import { style } from '@vanilla-extract/css';
import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';
import { vars } from '../../theme/vars.css';
import { formControls } from '../../theme/controls.css';
import { destructiveTone } from '../../theme/tones';

// Shared look of the account panels (API keys, profile, credits, ...): one card per panel, the
// same fields, buttons and tables, so a page that shows several of them reads as one.

export const panel = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.lg,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  fontFamily: vars.font.body,
  minWidth: 0,
});

export const title = style({ margin: 0, fontSize: vars.fontSize.lg, lineHeight: 1.3 });

export const formGrid = style({ display: 'grid', gap: vars.space.md, gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'end' });
export const stack = style({ display: 'grid', gap: vars.space.sm });

// The fields are the site's one form density (theme/controls.css.ts), as in the service editor.
export const field = formControls.field;
export const input = style([
  formControls.text,
  {
    // Intrinsic width in a row of controls (a key's name beside its lifetime); a grid field stretches it.
    width: 'auto',
    selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.onDanger, borderWidth: 2 } },
  },
]);

/** A file input (the support form's attachments) in the theme. */
export const fileInput = formControls.file;

export const button = recipe({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: vars.space.xs,
    padding: `${vars.space.xs} ${vars.space.md}`,
    borderRadius: vars.radius.pill,
    font: 'inherit',
    fontWeight: 700,
    cursor: 'pointer',
    border: `2px solid ${vars.color.primary}`,
    textDecoration: 'none',
    ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 },
    ':disabled': { cursor: 'not-allowed', opacity: 0.6 },
  },
  variants: {
    tone: {
      primary: { background: vars.color.primary, color: vars.color.onPrimary, ':hover': { background: vars.color.primaryHover } },
      outline: { background: 'transparent', color: vars.color.primary, ':hover': { background: vars.color.surfaceRaised } },
      danger: destructiveTone,
    },
  },
  defaultVariants: { tone: 'primary' },
});
export type ButtonVariants = RecipeVariants<typeof button>;

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.fontSize.sm });
// Positioned, so visually hidden labels (position: absolute) in its cells are clipped with the
// table instead of widening the page on a phone.
export const tableScroll = style({ overflowX: 'auto', maxWidth: '100%', position: 'relative' });
export const th = style({ textAlign: 'left', padding: vars.space.sm, borderBottom: `2px solid ${vars.color.border}` });
export const td = style({ padding: vars.space.sm, borderBottom: `1px solid ${vars.color.surfaceRaised}`, verticalAlign: 'middle' });
export const numeric = style({ textAlign: 'right', fontVariantNumeric: 'tabular-nums' });

export const muted = style({ color: vars.color.textMuted, margin: 0 });
export const big = style({ fontSize: vars.fontSize.xxl, fontWeight: 800, margin: 0, color: vars.color.primary });
export const secret = style({
  fontFamily: vars.font.mono,
  wordBreak: 'break-all',
  padding: vars.space.sm,
  margin: 0,
  background: vars.color.background,
  color: vars.color.text,
  borderRadius: vars.radius.sm,
});
export const notice = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.warningSurface,
  color: vars.color.onWarning,
});
export const errorText = style({
  margin: 0,
  padding: `${vars.space.xxs} ${vars.space.xs}`,
  fontSize: vars.fontSize.sm,
  background: vars.color.dangerSurface,
  color: vars.color.onDanger,
  borderRadius: vars.radius.sm,
});

export const feedback = recipe({
  base: { margin: 0, padding: `${vars.space.xs} ${vars.space.sm}`, borderRadius: vars.radius.sm, fontWeight: 600 },
  variants: {
    tone: {
      success: { background: vars.color.successSurface, color: vars.color.onSuccess },
      warning: { background: vars.color.warningSurface, color: vars.color.onWarning },
      danger: { background: vars.color.dangerSurface, color: vars.color.onDanger },
    },
  },
});

/** Visually hidden, still read by screen readers (table captions, sort state): the one shared copy. */
export { visuallyHidden } from '../../theme/a11y.css';

/** Links inside a notice take its text colour, so they keep its contrast. */
export const noticeLink = style({ color: 'inherit', textDecoration: 'underline', fontWeight: 700 });
