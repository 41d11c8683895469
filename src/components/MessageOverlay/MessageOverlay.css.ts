import { keyframes, style } from '@vanilla-extract/css';
import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';
import { vars } from '../../theme/vars.css';

export const toastRegion = style({
  position: 'fixed',
  top: vars.space.md,
  right: vars.space.md,
  left: vars.space.md,
  marginLeft: 'auto',
  maxWidth: '28rem',
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  zIndex: vars.zIndex.toast,
  fontFamily: vars.font.body,
  pointerEvents: 'none',
});

export const alert = recipe({
  base: {
    pointerEvents: 'auto',
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'start',
    gap: vars.space.sm,
    padding: vars.space.md,
    borderRadius: vars.radius.md,
    boxShadow: vars.shadow.popup,
    fontSize: vars.fontSize.sm,
  },
  variants: {
    kind: {
      warning: { background: vars.color.warningSurface, color: vars.color.onWarning },
      success: { background: vars.color.successSurface, color: vars.color.onSuccess },
    },
  },
});
export type AlertVariants = RecipeVariants<typeof alert>;

export const alertTitle = style({ margin: 0, fontSize: vars.fontSize.md, fontWeight: 700 });
export const alertMessage = style({ margin: 0 });

export const closeButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2rem',
  height: '2rem',
  border: 0,
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  ':hover': { background: 'rgba(255, 255, 255, 0.12)' },
  ':focus-visible': { outline: `2px solid currentColor`, outlineOffset: 2 },
});

export const backdrop = style({
  position: 'fixed',
  inset: 0,
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  background: vars.color.backdrop,
  fontFamily: vars.font.body,
});

export const criticalBackdrop = style([backdrop, { zIndex: vars.zIndex.dialog }]);
export const loadingBackdrop = style([backdrop, { zIndex: vars.zIndex.overlay, cursor: 'progress' }]);

export const criticalPanel = style({
  maxWidth: '32rem',
  margin: vars.space.md,
  padding: vars.space.xl,
  borderRadius: vars.radius.lg,
  background: vars.color.dangerSurface,
  color: vars.color.onDanger,
  boxShadow: vars.shadow.dialog,
  textAlign: 'center',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: vars.space.md,
});

export const criticalTitle = style({ margin: 0, fontSize: vars.fontSize.lg });

export const reloadButton = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  border: 0,
  borderRadius: vars.radius.pill,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  fontWeight: 700,
  fontSize: vars.fontSize.md,
  cursor: 'pointer',
  ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
});

const spin = keyframes({ to: { transform: 'rotate(360deg)' } });

export const spinner = style({
  width: 72,
  height: 72,
  borderRadius: '50%',
  border: `6px solid ${vars.color.skeleton}`,
  borderTopColor: vars.color.primary,
  animation: `${spin} 0.9s linear infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animationDuration: '2.4s' } },
});

export { visuallyHidden } from '../../theme/a11y.css';
