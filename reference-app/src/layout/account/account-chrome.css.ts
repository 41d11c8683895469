import { style } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '@limelight/widgets/theme/contract';

/** The route guard's wait message. */
export const checking = style({ maxWidth: 960, margin: '0 auto', padding: vars.space.lg, color: vars.color.textMuted });

/** Header user section: Login (anonymous) or Dashboard (logged in) (product-rules §2). */
export const userButton = recipe({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    padding: `${vars.space.sm} ${vars.space.lg}`,
    borderRadius: vars.radius.pill,
    border: `2px solid ${vars.color.primary}`,
    font: 'inherit',
    fontWeight: 700,
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
  },
  variants: {
    tone: {
      primary: { background: vars.color.primary, color: vars.color.onPrimary, ':hover': { background: vars.color.primaryHover } },
      outline: { background: 'transparent', color: vars.color.primary, ':hover': { background: vars.color.surfaceRaised } },
    },
  },
  defaultVariants: { tone: 'primary' },
});
