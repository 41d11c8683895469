import { globalStyle, keyframes, style } from '@vanilla-extract/css';
import { vars } from '../../theme/vars.css';

export const root = style({
  position: 'relative',
  width: '100%',
  minWidth: 0,
  fontFamily: vars.font.body,
  color: vars.color.text,
});

export { visuallyHidden } from '../../theme/a11y.css';

export const field = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  height: 40,
  paddingInline: vars.space.sm,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.pill,
  selectors: {
    '&:focus-within': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
});

export const icon = style({ flex: 'none', width: 18, height: 18, color: vars.color.textMuted });

export const input = style({
  flex: 1,
  minWidth: 0,
  height: '100%',
  padding: 0,
  border: 'none',
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  fontSize: vars.fontSize.sm,
  outline: 'none',
  selectors: {
    '&::placeholder': { color: vars.color.textMuted, opacity: 1 },
  },
});

export const clear = style({
  flex: 'none',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: 28,
  height: 28,
  padding: 0,
  border: 'none',
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: vars.color.textMuted,
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: vars.color.surfaceRaised, color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
  },
});

export const kbd = style({
  flex: 'none',
  minWidth: 20,
  paddingInline: vars.space.xs,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  color: vars.color.textMuted,
  fontFamily: vars.font.mono,
  fontSize: vars.fontSize.xs,
  lineHeight: '18px',
  textAlign: 'center',
});

export const panel = style({
  // Until floating-ui's positioner chunk arrives the popup hangs under the field; then it sets
  // position, width and max height through the CSSOM (see ResultsPositioner).
  position: 'absolute',
  top: 'calc(100% + 6px)',
  left: 0,
  minWidth: 'min(320px, 100vw)',
  width: '100%',
  maxHeight: '70vh',
  zIndex: vars.zIndex.popup,
  boxSizing: 'border-box',
  overflowY: 'auto',
  padding: vars.space.xs,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.popup,
  fontFamily: vars.font.body,
  selectors: {
    '&[hidden]': { display: 'none' },
  },
});

export const list = style({ listStyle: 'none', margin: 0, padding: 0 });

export const option = style({
  display: 'grid',
  gridTemplateColumns: '40px minmax(0, 1fr) auto',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.sm,
  cursor: 'pointer',
  selectors: {
    '&[data-highlighted]': { background: vars.color.surfaceRaised },
  },
});

/** "All results for …": one line across the whole row, cut with an ellipsis when the query is long. */
export const seeAll = style({
  gridColumn: '1 / -1',
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const thumb = style({
  width: 40,
  height: 40,
  borderRadius: vars.radius.sm,
  objectFit: 'cover',
  background: vars.color.surfaceRaised,
});

export const text = style({ display: 'flex', flexDirection: 'column', minWidth: 0 });

export const name = style({
  fontWeight: 600,
  fontSize: vars.fontSize.sm,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});

export const description = style({
  color: vars.color.textMuted,
  fontSize: vars.fontSize.xs,
  lineHeight: 1.4,
  overflowWrap: 'anywhere',
});

export const badge = style({
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  fontSize: vars.fontSize.xs,
  whiteSpace: 'nowrap',
});

export const mark = style({
  background: vars.color.mark,
  color: vars.color.onMark,
  borderRadius: 2,
});

const shimmer = keyframes({
  '0%': { opacity: 0.55 },
  '50%': { opacity: 1 },
  '100%': { opacity: 0.55 },
});

export const skeletonRow = style({
  display: 'grid',
  gridTemplateColumns: '40px minmax(0, 1fr) 56px',
  alignItems: 'center',
  gap: vars.space.sm,
  padding: vars.space.sm,
});

export const skeletonBlock = style({
  display: 'block',
  height: 12,
  borderRadius: vars.radius.sm,
  background: vars.color.skeleton,
  animation: `${shimmer} 1.4s ease-in-out infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
});

export const skeletonThumb = style([skeletonBlock, { width: 40, height: 40 }]);
export const skeletonLines = style({ display: 'flex', flexDirection: 'column', gap: vars.space.xs });
export const skeletonShort = style([skeletonBlock, { width: '45%' }]);
export const skeletonLong = style([skeletonBlock, { width: '90%' }]);

export const empty = style({
  margin: 0,
  padding: vars.space.md,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
  textAlign: 'center',
});

globalStyle(`${option}[data-highlighted] ${badge}`, { background: vars.color.background });

/** The result's badges, the Demo badge above the runs. */
export const badges = style({ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: vars.space.xxs });

/** A service on the demo runtime; its reason shows under the description while the result is highlighted. */
export const demoBadge = style({
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.warningSurface,
  color: vars.color.onWarning,
  fontSize: vars.fontSize.xs,
  fontWeight: 600,
  whiteSpace: 'nowrap',
});
export const demoReason = style({ display: 'none', fontSize: vars.fontSize.xs, color: vars.color.text, lineHeight: 1.4 });
globalStyle(`${option}[data-highlighted] ${demoReason}`, { display: 'block' });
