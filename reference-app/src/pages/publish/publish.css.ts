import { style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';
import { formControls } from '@limelight/widgets/theme/controls.css';

// The service editor (/APIs/edit/{id}) and the hosting list (/account/hosting).

export const layout = style({
  maxWidth: 1200,
  margin: '0 auto',
  padding: vars.space.lg,
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateColumns: 'minmax(0, 1fr)',
  '@media': { 'screen and (min-width: 1000px)': { gridTemplateColumns: 'minmax(0, 3fr) minmax(280px, 2fr)' } },
});
export const form = style({ display: 'grid', gap: vars.space.lg, alignContent: 'start' });
export const preview = style({
  display: 'grid',
  gap: vars.space.md,
  alignContent: 'start',
  '@media': { 'screen and (min-width: 1000px)': { position: 'sticky', top: vars.space.lg } },
});
export const section = style({
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  display: 'grid',
  gap: vars.space.md,
});
export const sectionTitle = style({ margin: 0, fontSize: vars.fontSize.lg });
export const grid = style({ display: 'grid', gap: vars.space.md, gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))' });
/** The account area's form density (theme/controls.css.ts): one look for every form of the site. */
export const field = formControls.field;
/** The site's input, on the page background, marked when the server names it in a 422. */
export const input = style([
  formControls.text,
  { width: 'auto', selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.onDanger } } },
]);
/** Radios and check boxes (runtime, categories, a parameter's required box). */
export const choiceInput = formControls.choice;
/** The picture's file input. */
export const fileInput = formControls.file;
export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const error = style({
  margin: 0,
  color: vars.color.onDanger,
  background: vars.color.dangerSurface,
  padding: vars.space.xs,
  borderRadius: vars.radius.sm,
  fontSize: vars.fontSize.sm,
});
export const fieldset = style({
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.md,
  padding: vars.space.md,
  margin: 0,
  display: 'grid',
  gap: vars.space.md,
  minWidth: 0,
});
export const legend = style({ fontWeight: 700, padding: `0 ${vars.space.xs}` });
export const choices = style({ display: 'flex', flexWrap: 'wrap', gap: `${vars.space.sm} ${vars.space.lg}` });
export const choice = style({ display: 'inline-flex', gap: vars.space.xs, alignItems: 'center' });
export const row = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, alignItems: 'center' });
export const actions = style([
  row,
  {
    position: 'sticky',
    bottom: 0,
    padding: vars.space.md,
    background: vars.color.surface,
    borderTop: `1px solid ${vars.color.surfaceRaised}`,
    zIndex: 1,
  },
]);
export const message = style({ margin: 0, padding: vars.space.md, borderRadius: vars.radius.md });
export const success = style({ background: vars.color.successSurface, color: vars.color.text });
export const failure = style({ background: vars.color.dangerSurface, color: vars.color.onDanger });
export const method = style({ fontFamily: vars.font.mono, fontWeight: 700 });
export const thumbnail = style({
  width: 220,
  maxWidth: '100%',
  aspectRatio: '660 / 372',
  objectFit: 'cover',
  borderRadius: vars.radius.md,
});
export const list = style({ margin: 0, paddingLeft: vars.space.lg });
export const dialog = style({
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  background: vars.color.surface,
  color: vars.color.text,
  padding: vars.space.lg,
  maxWidth: 440,
  '::backdrop': { background: 'rgb(0 0 0 / 0.5)' },
});
export const status = style({
  display: 'inline-block',
  padding: `0 ${vars.space.xs}`,
  borderRadius: vars.radius.sm,
  fontSize: vars.fontSize.sm,
});
export const grow = style({ flex: '1 1 280px' });

// The deployment panel (DeploymentStatus.tsx): a status line, timings as a definition list and
// the log view, monospace and scrollable by keyboard (it is focusable).
export const deployment = style({
  display: 'grid',
  gap: vars.space.sm,
  padding: vars.space.md,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  minWidth: 0,
});
export const timings = style({ display: 'flex', flexWrap: 'wrap', gap: `${vars.space.xs} ${vars.space.lg}`, margin: 0 });
export const timing = style({ display: 'flex', gap: vars.space.xs, margin: 0 });
export const timingLabel = style({ color: vars.color.textMuted });
export const logView = style({
  margin: 0,
  maxHeight: '16rem',
  overflow: 'auto',
  padding: vars.space.sm,
  fontFamily: vars.font.mono,
  fontSize: vars.fontSize.sm,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } },
});
