import { globalStyle, style, styleVariants } from '@vanilla-extract/css';
import { vars } from '../../theme/vars.css';

const focusRing = { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 } as const;

/** Page mode: a card in the page flow. */
export const page = style({
  boxSizing: 'border-box',
  width: '100%',
  maxWidth: '28rem',
  margin: `${vars.space.xl} auto`,
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  lineHeight: 1.5,
});

/** Overlay mode: a native modal <dialog> (top layer: no portal, no z-index fight, works in shadow roots). */
export const dialog = style({
  boxSizing: 'border-box',
  // Centred by us, not by the browser's default `margin: auto`, which a page's CSS reset
  // (`* { margin: 0 }`) would take away and pin the dialog to the top-left corner.
  position: 'fixed',
  inset: 0,
  margin: 'auto',
  width: 'min(28rem, calc(100vw - 2rem))',
  maxHeight: 'calc(100vh - 2rem)',
  overflowY: 'auto',
  padding: vars.space.lg,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  color: vars.color.text,
  boxShadow: vars.shadow.dialog,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  lineHeight: 1.5,
  selectors: {
    '&::backdrop': { background: vars.color.backdrop },
  },
});

export const header = style({
  display: 'flex',
  alignItems: 'flex-start',
  justifyContent: 'space-between',
  gap: vars.space.md,
  marginBottom: vars.space.md,
});

export const title = style({
  margin: 0,
  fontSize: vars.fontSize.xl,
  lineHeight: 1.2,
  fontWeight: 700,
  ':focus': { outline: 'none' },
  ':focus-visible': focusRing,
});

export const closeButton = style({
  flexShrink: 0,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '2.25rem',
  height: '2.25rem',
  border: 0,
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: vars.color.text,
  cursor: 'pointer',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': focusRing,
});

export const text = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted });

export const form = style({ display: 'flex', flexDirection: 'column', gap: vars.space.md });

export const field = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });

export const label = style({ fontSize: vars.fontSize.sm, fontWeight: 600 });

/** A password input with its show-password toggle at the end. */
export const passwordRow = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: vars.space.sm, alignItems: 'center' });

export const input = style({
  boxSizing: 'border-box',
  width: '100%',
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  background: vars.color.background,
  color: vars.color.text,
  font: 'inherit',
  ':focus-visible': focusRing,
  selectors: {
    '&[aria-invalid="true"]': { borderColor: vars.color.onDanger, borderWidth: 2 },
  },
});

export { fieldError } from '../../theme/forms.css';

// Plain classes, not a recipe: the recipe runtime cost the script-tag bundle 0.6 kB (gzip).
// The view joins them: `button` plus one of `buttonKind`, plus `block` for full width.
export const button = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.sm,
  minHeight: '2.5rem',
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.pill,
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
  ':focus-visible': focusRing,
  ':disabled': { cursor: 'progress', opacity: 0.7 },
});

export const buttonKind = styleVariants({
  primary: {
    border: 0,
    background: vars.color.primary,
    color: vars.color.onPrimary,
    selectors: { '&:hover:not(:disabled)': { background: vars.color.primaryHover } },
  },
  secondary: {
    border: `1px solid ${vars.color.border}`,
    background: 'transparent',
    color: vars.color.text,
    selectors: { '&:hover:not(:disabled)': { background: vars.color.surfaceRaised } },
  },
});

export const block = style({ width: '100%' });

/** A button that reads as a link (it changes the page_state, it does not leave the page). */
export const linkButton = style({
  padding: 0,
  border: 0,
  background: 'transparent',
  color: vars.color.primary,
  font: 'inherit',
  textDecoration: 'underline',
  cursor: 'pointer',
  ':focus-visible': focusRing,
  ':disabled': { cursor: 'progress', opacity: 0.7 },
});

export const row = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
});

export const switchLine = style({ margin: `${vars.space.md} 0 0`, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const alert = style({
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space.sm,
  marginBottom: vars.space.md,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  fontSize: vars.fontSize.sm,
});

export const alertTone = styleVariants({
  error: { background: vars.color.dangerSurface, color: vars.color.onDanger },
  success: { background: vars.color.successSurface, color: vars.color.onSuccess },
  info: { background: vars.color.surfaceRaised, color: vars.color.text },
});

export const alertBody = style({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: vars.space.sm });
export const alertMessage = style({ margin: 0 });

export const alertAction = style({
  alignSelf: 'flex-start',
  padding: `${vars.space.xs} ${vars.space.md}`,
  border: '1px solid currentColor',
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: 'inherit',
  font: 'inherit',
  fontWeight: 700,
  cursor: 'pointer',
  ':focus-visible': { outline: '2px solid currentColor', outlineOffset: 2 },
});

export const dismiss = style({
  flexShrink: 0,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '1.75rem',
  height: '1.75rem',
  border: 0,
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  ':focus-visible': { outline: '2px solid currentColor', outlineOffset: 2 },
});

export const divider = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  margin: `${vars.space.lg} 0 ${vars.space.md}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
  '::before': { content: '""', flex: 1, borderTop: `1px solid ${vars.color.border}` },
  '::after': { content: '""', flex: 1, borderTop: `1px solid ${vars.color.border}` },
});

/** One provider a line (its logo and "Continue with …"). */
export const socialList = style({
  display: 'grid',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});

export const status = style({ margin: `${vars.space.md} 0`, color: vars.color.textMuted });

globalStyle(`${dialog} *, ${page} *`, { boxSizing: 'border-box' });
