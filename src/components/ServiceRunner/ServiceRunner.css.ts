import { style, globalStyle } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { widgetCard } from '../../theme/card.css';
import { formControls } from '../../theme/controls.css';
import { fieldError as themeFieldError } from '../../theme/forms.css';
import { vars } from '../../theme/vars.css';

// The runner sizes its columns by its own width, not the window's: it is embedded in pages and
// third-party sites of any width (container query below).
export const root = style([widgetCard, { minWidth: 0, containerType: 'inline-size' }]);

/** Wide enough for the form and the output side by side (inputs left, output right). */
const wide = '(min-width: 760px)';

export const layout = style({
  display: 'grid',
  gap: vars.space.lg,
  minWidth: 0,
  '@container': { [wide]: { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', alignItems: 'start' } },
});

/**
 * The output column stays in view while a long form scrolls. A page with a fixed header sets
 * `--lime-runner-sticky-top` to the header's height.
 */
export const outputPane = style({
  display: 'grid',
  gap: vars.space.sm,
  minWidth: 0,
  alignContent: 'start',
  '@container': {
    [wide]: { position: 'sticky', top: 'var(--lime-runner-sticky-top, 1rem)' },
  },
});

export const placeholder = style({
  display: 'grid',
  placeItems: 'center',
  minHeight: '12rem',
  padding: vars.space.lg,
  borderRadius: vars.radius.md,
  border: `2px dashed ${vars.color.border}`,
  color: vars.color.textMuted,
  textAlign: 'center',
  fontSize: vars.fontSize.sm,
});

export const header = style({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.md,
});
/** The header with its title hidden (titleHidden): its box goes, so no empty row and gap remain. */
export const headerUntitled = style({ display: 'contents' });
export const title = style({ margin: 0, fontSize: vars.fontSize.lg, fontWeight: 700 });
export const sectionTitle = style({ margin: 0, fontSize: vars.fontSize.md, fontWeight: 700 });

export const form = style({ display: 'grid', gap: vars.space.md, minWidth: 0 });

export const field = style({ display: 'grid', gap: vars.space.xs, minWidth: 0, margin: 0, padding: 0, border: 0 });

export const label = style({ fontWeight: 600, fontSize: vars.fontSize.sm });
export const requiredMark = style({ color: vars.color.primary, marginInlineStart: vars.space.xxs });
export const hint = style({ margin: 0, fontSize: vars.fontSize.xs, color: vars.color.textMuted });
export const fieldError = themeFieldError;

/** Invalid controls are outlined in the danger colour (aria-invalid is the one source of truth). */
const control = style([
  formControls.text,
  { selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.onDanger, boxShadow: `0 0 0 1px ${vars.color.onDanger}` } } },
]);

export const input = control;
export const rangeRow = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 7rem', gap: vars.space.sm, alignItems: 'center' });
export const range = style({
  width: '100%',
  margin: 0,
  accentColor: vars.color.primary,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
});
export const textarea = style([control, { minHeight: '5.5rem', resize: 'vertical' }]);
export const select = control;
export const jsonArea = style([
  control,
  {
    minHeight: '6rem',
    fontFamily: vars.font.mono,
    fontSize: vars.fontSize.sm,
    resize: 'vertical',
  },
]);

export const switchRow = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.sm,
  cursor: 'pointer',
  width: 'fit-content',
});
export const switchTrack = recipe({
  base: {
    position: 'relative',
    display: 'inline-block',
    width: '2.5rem',
    height: '1.4rem',
    borderRadius: vars.radius.pill,
    border: `1px solid ${vars.color.border}`,
    padding: 0,
    cursor: 'pointer',
    selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
    '::after': {
      content: '""',
      position: 'absolute',
      top: '0.15rem',
      width: '1rem',
      height: '1rem',
      borderRadius: '50%',
      transition: 'inset-inline-start 120ms',
    },
    '@media': { '(prefers-reduced-motion: reduce)': { transition: 'none' } },
  },
  variants: {
    on: {
      true: {
        background: vars.color.primary,
        selectors: { '&::after': { insetInlineStart: '1.25rem', background: vars.color.onPrimary } },
      },
      false: {
        background: vars.color.background,
        selectors: { '&::after': { insetInlineStart: '0.2rem', background: vars.color.textMuted } },
      },
    },
  },
});

export const list = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, listStyle: 'none' });
export const listRow = style({ display: 'grid', gridTemplateColumns: '1fr auto', gap: vars.space.sm, alignItems: 'start' });
export const messageRow = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(7rem, auto) 1fr auto',
  gap: vars.space.sm,
  alignItems: 'start',
});

const buttonBase = {
  boxSizing: 'border-box',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.pill,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
    '&:disabled': { opacity: 0.55, cursor: 'not-allowed' },
  },
} as const;

export const button = recipe({
  base: buttonBase,
  variants: {
    tone: {
      primary: { background: vars.color.primary, color: vars.color.onPrimary, border: `1px solid ${vars.color.primary}` },
      secondary: { background: 'transparent', color: vars.color.text, border: `1px solid ${vars.color.border}` },
      small: {
        background: 'transparent',
        color: vars.color.text,
        border: `1px solid ${vars.color.border}`,
        padding: `${vars.space.xxs} ${vars.space.sm}`,
        fontSize: vars.fontSize.sm,
      },
    },
  },
  defaultVariants: { tone: 'primary' },
});

export const actions = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: vars.space.md });

/**
 * Estimate and Run, at the head of the output column (issue 39, item 5). Beside the form that
 * column sticks in view, so Run is reachable however long the form is, and nothing is laid over
 * the form's fields (a bar stuck to the window's bottom covered the field under it).
 */
export const actionBar = style({
  display: 'grid',
  gap: vars.space.xs,
  minWidth: 0,
  paddingBottom: vars.space.xs,
  borderBottom: `1px solid ${vars.color.border}`,
});

/** The file input inside the drop zone: the theme's button, not the browser's grey one. */
export const fileInput = formControls.file;

export const dropZone = recipe({
  base: {
    display: 'grid',
    // Inside its card on a phone (issue 50, item 6): the file input and a long file name shrink
    // or wrap within the zone rather than push past it.
    gridTemplateColumns: 'minmax(0, 1fr)',
    minWidth: 0,
    overflowWrap: 'anywhere',
    gap: vars.space.sm,
    justifyItems: 'start',
    padding: vars.space.md,
    borderRadius: vars.radius.md,
    border: `2px dashed ${vars.color.border}`,
    background: vars.color.background,
    selectors: { '&:focus-within': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
  },
  variants: {
    active: { true: { borderColor: vars.color.primary }, false: {} },
    invalid: { true: { borderColor: vars.color.onDanger }, false: {} },
  },
});

export const preview = style({ maxWidth: '12rem', maxHeight: '8rem', borderRadius: vars.radius.sm, objectFit: 'contain' });

export const estimate = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: `${vars.space.xxs} ${vars.space.sm}`,
  alignItems: 'baseline',
  margin: 0,
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
});
export const estimateValue = style({ color: vars.color.text, fontWeight: 600 });

export const status = style({ display: 'grid', gap: vars.space.sm });
export const statusLine = style({
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  fontSize: vars.fontSize.sm,
});

/** Width comes from the `value` attribute of the native <progress>, so no inline style is needed (strict CSP). */
export const progressBar = style({
  appearance: 'none',
  display: 'block',
  width: '100%',
  height: '0.5rem',
  border: 0,
  borderRadius: vars.radius.pill,
  background: vars.color.background,
  color: vars.color.primary,
  overflow: 'hidden',
  selectors: {
    '&::-webkit-progress-bar': { background: vars.color.background },
    '&::-webkit-progress-value': { background: vars.color.primary },
    '&::-moz-progress-bar': { background: vars.color.primary },
  },
});

export const alert = recipe({
  base: {
    margin: 0,
    padding: `${vars.space.sm} ${vars.space.md}`,
    borderRadius: vars.radius.md,
    display: 'flex',
    flexWrap: 'wrap',
    gap: vars.space.sm,
    alignItems: 'center',
  },
  variants: {
    tone: {
      danger: { background: vars.color.dangerSurface, color: vars.color.onDanger },
      warning: { background: vars.color.warningSurface, color: vars.color.onWarning },
      info: { background: vars.color.surfaceRaised, color: vars.color.text },
    },
  },
});

export const linkButton = style({
  background: 'none',
  border: 0,
  padding: 0,
  font: 'inherit',
  fontWeight: 700,
  color: 'inherit',
  textDecoration: 'underline',
  cursor: 'pointer',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
});

export const output = style({ display: 'grid', gap: vars.space.sm, minWidth: 0 });
export const media = style({ display: 'block', maxWidth: '100%', height: 'auto', borderRadius: vars.radius.md });
export const figure = style({ display: 'grid', gap: vars.space.sm, justifyItems: 'start', minWidth: 0, margin: 0 });
/** An audio element has no intrinsic height once `height: auto` applies: give the player its own. */
export const audio = style({ display: 'block', width: '100%', minHeight: '3rem', colorScheme: 'light dark' });
export const modelViewer = style({ display: 'grid', gap: vars.space.xs, width: '100%', minWidth: 0 });
export const modelCanvas = style({
  display: 'block',
  width: '100%',
  aspectRatio: '4 / 3',
  borderRadius: vars.radius.md,
  background: vars.color.background,
  touchAction: 'none',
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
});
export const jsonBlock = style({ display: 'grid', gap: vars.space.xs, justifyItems: 'end', minWidth: 0 });
export { visuallyHidden } from '../../theme/a11y.css';
export const textOutput = style({
  margin: 0,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.background,
});
export const jsonOutput = style({
  margin: 0,
  width: '100%',
  boxSizing: 'border-box',
  maxHeight: '24rem',
  overflow: 'auto',
  // Long values (a caption, a base64 string) wrap instead of scrolling sideways (issue 39, item 5);
  // the indentation of the structure stays.
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  padding: vars.space.md,
  borderRadius: vars.radius.md,
  background: vars.color.background,
  fontFamily: vars.font.mono,
  fontSize: vars.fontSize.sm,
});
export const meta = style({ margin: 0, fontSize: vars.fontSize.xs, color: vars.color.textMuted });

// Never wider than the runner (issue 50, item 6): a column of at most the card's width, and a
// label that shrinks with an ellipsis (its full text is its title).
export const recent = style({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: vars.space.sm, minWidth: 0 });
/** The list's one column never wider than the card: an implicit column widened to the longest label. */
export const recentList = style({
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: 'none',
});
export const recentItem = style({
  minWidth: 0,
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  background: vars.color.background,
});
export const recentText = style({
  flex: '1 1 12rem',
  minWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  maxWidth: 'min(30rem, 100%)',
  fontSize: vars.fontSize.sm,
});

globalStyle(`${textOutput}[data-streaming="true"]::after`, { content: '"▍"', color: vars.color.primary });
