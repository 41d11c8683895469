import { globalStyle, keyframes, style } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '@limelight/widgets/theme/contract';
import { pillButton } from '../page.css';

const smDown = 'screen and (max-width: 599px)';
const mdDown = 'screen and (max-width: 899px)';

export const page = style({
  maxWidth: 1200,
  margin: '0 auto',
  padding: `${vars.space.xl} ${vars.space.lg}`,
  '@media': { [smDown]: { padding: `${vars.space.lg} ${vars.space.md}` } },
});

export const title = style({ fontSize: vars.fontSize.xl, margin: `0 0 ${vars.space.sm}` });
export const intro = style({ color: vars.color.textMuted, margin: `0 0 ${vars.space.lg}`, maxWidth: 720 });

export const layout = style({
  display: 'grid',
  gridTemplateColumns: '260px minmax(0, 1fr)',
  gap: vars.space.lg,
  alignItems: 'start',
  '@media': { [mdDown]: { gridTemplateColumns: 'minmax(0, 1fr)' } },
});

export const filters = style({
  display: 'grid',
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
});

export const filtersOpen = style({});

// On a phone only the search box stays in view; the other filters wait behind their button, so
// the first cards are on the first screen.
globalStyle(`${filters}:not(${filtersOpen}) > :not(:first-child)`, { '@media': { [mdDown]: { display: 'none' } } });

/** The button that shows the filters on a phone; a wide screen shows them beside the results. */
export const filtersToggle = style({ display: 'none', '@media': { [mdDown]: { display: 'inline-flex', justifySelf: 'start' } } });

export const fieldset = style({ border: 0, margin: 0, padding: 0, minWidth: 0 });
export const legend = style({ padding: 0, marginBottom: vars.space.xs, fontWeight: 700, fontSize: vars.fontSize.sm });
export const chips = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.xs });

export const chipInput = style({ position: 'absolute', opacity: 0, width: 1, height: 1, margin: 0 });

export const chip = style({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.pill,
  fontSize: vars.fontSize.xs,
  fontWeight: 600,
  letterSpacing: '0.03em',
  cursor: 'pointer',
  userSelect: 'none',
  color: vars.color.text,
  background: 'transparent',
  selectors: {
    '&:has(input:checked)': { background: vars.color.primary, color: vars.color.onPrimary, borderColor: vars.color.primary },
    '&:has(input:focus-visible)': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
});

export const label = style({ display: 'grid', gap: vars.space.xs, fontSize: vars.fontSize.sm, fontWeight: 600 });

export const control = style({
  width: '100%',
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  font: 'inherit',
  fontWeight: 400,
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});

export const toolbar = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'end',
  justifyContent: 'space-between',
  gap: vars.space.md,
  marginBottom: vars.space.md,
});

export const toolbarControls = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md });

export const count = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

export const textButton = style([
  pillButton,
  {
    selectors: {
      '&:hover:not(:disabled)': { borderColor: vars.color.primary },
      '&:disabled': { opacity: 0.5, cursor: 'default' },
    },
  },
]);

export const results = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
});

export const card = style({
  display: 'grid',
  gridTemplateRows: 'auto 1fr auto',
  height: '100%',
  overflow: 'hidden',
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  color: vars.color.text,
  textDecoration: 'none',
  selectors: {
    '&:hover': { borderColor: vars.color.primary },
    '&:focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
});

export const cardImage = style({
  display: 'block',
  width: '100%',
  aspectRatio: '16 / 9',
  objectFit: 'cover',
  background: vars.color.surfaceRaised,
});
/** How many tones the generated monograms come in (ServicePicture picks one by the service id). */
export const MONOGRAM_TONES = 4;
const tone = (from: string, to: string) => ({ background: `linear-gradient(135deg, ${from}, ${to})` });
export const monogram = recipe({
  base: {
    display: 'grid',
    placeItems: 'center',
    color: '#f4f1fa',
    fontWeight: 800,
    fontSize: 'clamp(1.5rem, 6vw, 3rem)',
    letterSpacing: '0.04em',
    userSelect: 'none',
    // Doubled, so it outweighs the picture's own class (serviceImage's display: block, defined
    // later), which left the letters in the top corner of a service page's placeholder (issue 39).
    selectors: { '&&': { display: 'grid', placeItems: 'center' } },
  },
  variants: {
    tone: {
      0: tone('#3b2d57', '#24405a'),
      1: tone('#2f4a3a', '#3b2d57'),
      2: tone('#4a3550', '#2d3f5c'),
      3: tone('#2b4650', '#463a5e'),
    },
  },
});
export const cardBody = style({ display: 'grid', gap: vars.space.xs, alignContent: 'start', padding: vars.space.md });
export const cardTitle = style({ margin: 0, fontSize: vars.fontSize.md, overflowWrap: 'anywhere' });
export const cardText = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const cardMeta = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.xs,
  padding: `0 ${vars.space.md} ${vars.space.md}`,
});

export const badge = style({
  display: 'inline-block',
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  fontSize: vars.fontSize.xs,
  // Long category names wrap inside the badge rather than push the page sideways.
  maxWidth: '100%',
  overflowWrap: 'anywhere',
});

/** Says a service cannot be run yet (no endpoint to call). */
export const warningBadge = style([badge, { background: vars.color.warningSurface, color: vars.color.onWarning, fontWeight: 600 }]);

export const pager = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.md,
  marginTop: vars.space.lg,
});

const pulse = keyframes({ '0%, 100%': { opacity: 0.5 }, '50%': { opacity: 1 } });

export const placeholder = style({
  minHeight: 260,
  borderRadius: vars.radius.lg,
  background: vars.color.skeleton,
  animation: `${pulse} 1.4s ease-in-out infinite`,
  '@media': { '(prefers-reduced-motion: reduce)': { animation: 'none' } },
});

export const empty = style({ padding: vars.space.xl, textAlign: 'center', color: vars.color.textMuted });

// Service page

// A compact picture, so the playground (and its Run button) starts in the first screenful.
export const serviceHeader = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 200px) minmax(0, 1fr)',
  gap: vars.space.lg,
  alignItems: 'start',
  // Narrow screens: a small picture beside the title, the text flowing on below it at full width.
  '@media': { [mdDown]: { display: 'flow-root' } },
});

/** A service page: the playground's output column sticks below the 100 px site header. */
export const servicePage = style([
  page,
  // A shorter top margin than other pages: at 1280×800 the playground's result shows without scrolling (issue 39, item 5).
  { vars: { '--lime-runner-sticky-top': '116px' }, paddingTop: vars.space.md },
]);

/** The same header in a narrow column (the editor's preview): image above the text. */
export const serviceHeaderStacked = style([serviceHeader, { gridTemplateColumns: 'minmax(0, 1fr)' }]);

export const serviceImage = style({
  display: 'block',
  width: '100%',
  '@media': { [mdDown]: { float: 'left', width: 96, marginInlineEnd: vars.space.md, marginBlockEnd: vars.space.sm } },
  aspectRatio: '1 / 1',
  objectFit: 'cover',
  borderRadius: vars.radius.lg,
  background: vars.color.surfaceRaised,
});

export const facts = style({
  display: 'grid',
  // Two facts a row on wide screens: the header stays short and the playground starts higher.
  gridTemplateColumns: 'max-content minmax(0, 1fr) max-content minmax(0, 1fr)',
  '@media': { [mdDown]: { gridTemplateColumns: 'max-content minmax(0, 1fr)', clear: 'both' } },
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `${vars.space.md} 0 0`,
});
export const factName = style({ color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const factValue = style({ margin: 0, overflowWrap: 'anywhere' });

export const description = style({ lineHeight: 1.6, overflowWrap: 'anywhere', '@media': { [mdDown]: { clear: 'both' } } });
globalStyle(`${description} img`, { maxWidth: '100%' });

export const sectionTitle = style({ fontSize: vars.fontSize.lg, margin: `${vars.space.xl} 0 ${vars.space.sm}` });

export const endpoint = style({
  marginBottom: vars.space.lg,
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  overflowX: 'auto',
});

export const endpointTitle = style({ margin: `0 0 ${vars.space.xs}`, fontFamily: vars.font.mono, fontSize: vars.fontSize.md });
export const method = style({ color: vars.color.primary, marginRight: vars.space.sm });

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.fontSize.sm });
globalStyle(`${table} th`, { textAlign: 'left', padding: vars.space.xs, borderBottom: `2px solid ${vars.color.border}` });
globalStyle(`${table} td`, { padding: vars.space.xs, borderBottom: `1px solid ${vars.color.surfaceRaised}`, verticalAlign: 'top' });
export const code = style({ fontFamily: vars.font.mono, fontSize: vars.fontSize.xs });

export const link = style({ color: vars.color.primary });

/** The signed-in visitor's balance under a service's header. */
export const balanceLine = style({ margin: `${vars.space.sm} 0 0`, color: vars.color.textMuted, fontSize: vars.fontSize.sm });

/** The Demo badge (DemoBadge.tsx): outlined, so it reads apart from the runs and category badges. */
export const demoBadge = style([
  badge,
  {
    position: 'relative',
    border: `1px solid ${vars.color.warningSurface}`,
    background: vars.color.warningSurface,
    color: vars.color.onWarning,
    fontWeight: 600,
    font: 'inherit',
    fontSize: vars.fontSize.xs,
    lineHeight: 'inherit',
    cursor: 'help',
    selectors: { '&:focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
  },
]);

/** The badge and its tooltip, positioned together on the service page. */
export const demoAnchor = style({ position: 'relative', display: 'inline-block' });

/** The badge's reason: shown on hover and focus (of the badge, or of the card that holds it), hidden after Escape. */
export const demoTip = style({
  display: 'none',
  position: 'absolute',
  zIndex: vars.zIndex.popup,
  insetBlockEnd: 'calc(100% + 6px)',
  insetInlineStart: 0,
  width: 'max-content',
  maxWidth: 'min(18rem, 80vw)',
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.md,
  background: vars.color.text,
  color: vars.color.background,
  boxShadow: vars.shadow.popup,
  fontSize: vars.fontSize.xs,
  fontWeight: 400,
  whiteSpace: 'normal',
  textAlign: 'start',
});
globalStyle(
  `${demoBadge}:hover ${demoTip}, ${demoAnchor}:hover ${demoTip}, ${demoAnchor}:focus-within ${demoTip}, ${card}:focus-visible ${demoTip}`,
  {
    display: 'block',
  },
);
globalStyle(`${demoAnchor} ${demoTip}[data-dismissed][role]`, { display: 'none' });

/** The badges under a service page's name (the Demo badge). */
export const headerBadges = style({ margin: `0 0 ${vars.space.sm}` });
// Under the name the header's text column starts mid-screen on a phone, where a floating tooltip
// would run past the edge: the reason opens in the flow, under the badge.
globalStyle(`${headerBadges} ${demoTip}`, { position: 'static', width: 'auto', maxWidth: '100%', marginTop: vars.space.xs });
globalStyle(`${headerBadges} ${demoAnchor}`, { display: 'block' });
