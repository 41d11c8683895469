import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

// One column that never grows past the screen (an implicit grid column would widen to its widest
// table); wide tables scroll inside their own container (tableScroll).
export const page = style({
  maxWidth: 960,
  margin: '0 auto',
  padding: vars.space.lg,
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: vars.space.lg,
  '@media': { 'screen and (max-width: 599px)': { padding: vars.space.md } },
});
/** A note that something of this page moved elsewhere, with the link to it. */
export const moved = style({ margin: 0, color: vars.color.textMuted });
/** A long e-mail address in the greeting wraps instead of widening the page. */
export const greeting = style({ overflowWrap: 'anywhere' });
export const panel = style({
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
});
export const panelTitle = style({ margin: `0 0 ${vars.space.md}`, fontSize: vars.fontSize.lg });
export const formGrid = style({ display: 'grid', gap: vars.space.md, gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'end' });
export const secret = style({
  fontFamily: vars.font.mono,
  wordBreak: 'break-all',
  padding: vars.space.sm,
  background: vars.color.background,
  borderRadius: vars.radius.sm,
});
export const notice = style({
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.warningSurface,
  color: vars.color.onWarning,
});
export const big = style({ fontSize: vars.fontSize.xxl, fontWeight: 800, margin: 0, color: vars.color.primary });
// Positioned: absolutely positioned (visually hidden) cell content stays clipped with the table.
export const tableScroll = style({ overflowX: 'auto', position: 'relative' });
export const titleRow = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.md,
  alignItems: 'center',
  justifyContent: 'space-between',
});
export const rowHeader = style({ textAlign: 'left', fontWeight: 600 });
/** A link that fills its table row's height: a 24 px target (WCAG 2.5.8, axe's target-size; issue 50, item 7). */
export const rowLink = style({ display: 'inline-block', minHeight: 24, lineHeight: '24px' });
// The row's buttons wrap inside their cell rather than push the table past its panel, where the
// scroller cut Delete off at the right edge (issue 50, item 7).
export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, whiteSpace: 'nowrap' });
/** A container service's deployment, opened in its runtime cell: wide enough for the log lines. */
export const deploymentDetails = style({
  minWidth: '18rem',
  maxWidth: '28rem',
  selectors: { '&[open]': { display: 'grid', gap: vars.space.sm } },
});
globalStyle(`${deploymentDetails} > summary`, { cursor: 'pointer' });
