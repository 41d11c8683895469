import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';
import { HEADER_HEIGHT } from '../../layout/layout.css';

// The docs pages (/docs): a sidebar (search, pages, sections) beside the content; one column on
// small screens, where nothing may widen the page (issue 50: no sideways scroll at 390 px).

const mdDown = 'screen and (max-width: 899px)';
/** Anchored sections stop below the sticky header, not under it. */
const BELOW_HEADER = `${HEADER_HEIGHT + 16}px`;

export const layout = style({
  maxWidth: 1240,
  margin: '0 auto',
  padding: `${vars.space.xl} ${vars.space.lg}`,
  display: 'grid',
  gridTemplateColumns: '260px minmax(0, 1fr)',
  gap: vars.space.xl,
  alignItems: 'start',
  '@media': { [mdDown]: { gridTemplateColumns: 'minmax(0, 1fr)', padding: `${vars.space.lg} ${vars.space.md}` } },
});

export const sidebar = style({
  position: 'sticky',
  top: BELOW_HEADER,
  maxHeight: `calc(100vh - ${HEADER_HEIGHT + 32}px)`,
  overflowY: 'auto',
  display: 'grid',
  gap: vars.space.lg,
  '@media': { [mdDown]: { position: 'static', maxHeight: 'none' } },
});

export const navList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.xxs,
  // On a phone the pages wrap as a few short rows, so the content starts in the first screen.
  '@media': { [mdDown]: { display: 'flex', flexWrap: 'wrap', fontSize: vars.fontSize.sm } },
});
/** A page's sections under its entry: on a phone the page's own headings are enough. */
export const subList = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.xxs,
  '@media': { [mdDown]: { display: 'none' } },
});
export const navTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: vars.fontSize.sm, color: vars.color.textMuted, fontWeight: 600 });
export const navLink = style({
  display: 'block',
  padding: `${vars.space.xs} ${vars.space.sm}`,
  minHeight: 24,
  borderRadius: vars.radius.md,
  color: vars.color.text,
  textDecoration: 'none',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
  selectors: { '&[aria-current="page"]': { background: vars.color.surfaceRaised, color: vars.color.primary, fontWeight: 700 } },
});
export const navSub = style([navLink, { paddingLeft: vars.space.lg, fontSize: vars.fontSize.sm, color: vars.color.textMuted }]);

export const content = style({ minWidth: 0 });

/** The rendered Markdown. */
export const prose = style({ lineHeight: 1.65, overflowWrap: 'anywhere' });
globalStyle(`${prose} h1`, { fontSize: vars.fontSize.xxl, lineHeight: 1.2, margin: `0 0 ${vars.space.md}` });
globalStyle(`${prose} h2`, { fontSize: vars.fontSize.xl, margin: `${vars.space.xl} 0 ${vars.space.sm}`, scrollMarginTop: BELOW_HEADER });
globalStyle(`${prose} h3, ${prose} h4`, {
  fontSize: vars.fontSize.lg,
  margin: `${vars.space.lg} 0 ${vars.space.sm}`,
  scrollMarginTop: BELOW_HEADER,
});
globalStyle(`${prose} a`, { color: vars.color.primary });
globalStyle(`${prose} a.doc-anchor`, { color: vars.color.textMuted, textDecoration: 'none', fontSize: '0.8em', marginLeft: vars.space.xs });
globalStyle(`${prose} :not(pre) > code`, {
  fontFamily: vars.font.mono,
  fontSize: '0.9em',
  background: vars.color.surfaceRaised,
  padding: '0.1em 0.3em',
  borderRadius: vars.radius.sm,
});
globalStyle(`${prose} pre`, {
  fontFamily: vars.font.mono,
  fontSize: vars.fontSize.sm,
  background: vars.color.surface,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  overflowX: 'auto',
});
// Wide tables scroll inside themselves, never the page.
globalStyle(`${prose} table`, {
  display: 'block',
  overflowX: 'auto',
  borderCollapse: 'collapse',
  fontSize: vars.fontSize.sm,
  margin: `${vars.space.md} 0`,
});
globalStyle(`${prose} th, ${prose} td`, {
  border: `1px solid ${vars.color.border}`,
  padding: vars.space.xs,
  textAlign: 'left',
  verticalAlign: 'top',
});
globalStyle(`${prose} blockquote`, {
  margin: `${vars.space.md} 0`,
  paddingLeft: vars.space.md,
  borderLeft: `3px solid ${vars.color.border}`,
  color: vars.color.textMuted,
});
globalStyle(`${prose} img`, { maxWidth: '100%' });

export const code = style({ margin: `${vars.space.md} 0` });
/** The code before the viewer takes over (and without JavaScript). */
export const plainCode = style({
  margin: `${vars.space.md} 0`,
  fontFamily: vars.font.mono,
  fontSize: 12,
  lineHeight: 1.5,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  color: vars.color.text,
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  overflow: 'auto',
  maxHeight: 400,
  whiteSpace: 'pre',
});

export const search = style({ display: 'grid', gap: vars.space.xs });
export const searchInput = style({
  width: '100%',
  boxSizing: 'border-box',
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: 'inherit',
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});
export const searchResults = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
export const searchResult = style({
  display: 'grid',
  gap: vars.space.xxs,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.surface,
  color: vars.color.text,
  textDecoration: 'none',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});
export const muted = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
/** Empty until there is a query; it stays in the page (not display: none) so changes are announced. */
export const status = style([muted, { margin: 0 }]);
export const excerpt = style([muted, { display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }]);

export const guides = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))',
  margin: `${vars.space.md} 0`,
});
export const guide = style({
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
});
export const guideTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: vars.fontSize.lg });
globalStyle(`${guideTitle} a`, { color: vars.color.primary });
export const guideLinks = style({
  listStyle: 'none',
  margin: `${vars.space.sm} 0 0`,
  padding: 0,
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
});
globalStyle(`${guideLinks} a`, {
  color: vars.color.text,
  fontSize: vars.fontSize.sm,
  display: 'inline-block',
  minHeight: 24,
  lineHeight: '24px',
});

// The API reference.
export const operation = style({
  borderTop: `1px solid ${vars.color.surfaceRaised}`,
  padding: `${vars.space.lg} 0`,
  scrollMarginTop: BELOW_HEADER,
});
export const operationTitle = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: vars.space.sm,
  fontSize: vars.fontSize.lg,
  margin: `0 0 ${vars.space.sm}`,
});
export const method = style({
  fontFamily: vars.font.mono,
  fontSize: vars.fontSize.xs,
  fontWeight: 800,
  padding: `${vars.space.xxs} ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  background: vars.color.primary,
  color: vars.color.onPrimary,
});
export const path = style({ fontFamily: vars.font.mono, overflowWrap: 'anywhere' });
export const fieldList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
export const nestedFields = style([
  fieldList,
  { marginTop: vars.space.xs, paddingLeft: vars.space.md, borderLeft: `2px solid ${vars.color.surfaceRaised}` },
]);
export const fieldName = style({ fontFamily: vars.font.mono, fontWeight: 700 });
export const fieldMeta = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm, marginLeft: vars.space.xs });
export const subTitle = style({ fontSize: vars.fontSize.md, margin: `${vars.space.md} 0 ${vars.space.xs}` });
export const tabList = style({ display: 'flex', gap: vars.space.xs, marginTop: vars.space.md });
export const tab = style({
  padding: `${vars.space.xs} ${vars.space.md}`,
  minHeight: 32,
  borderRadius: vars.radius.pill,
  border: `1px solid ${vars.color.border}`,
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  cursor: 'pointer',
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  selectors: {
    '&[aria-selected="true"]': { background: vars.color.primary, color: vars.color.onPrimary, borderColor: vars.color.primary },
  },
});
