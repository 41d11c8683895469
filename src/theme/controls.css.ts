import { style } from '@vanilla-extract/css';
import { vars } from './vars.css';

// Apart from forms.css.ts so the sign-in overlay's bundle (which imports that) does not carry it.
// One exported object, not one name per class: the public surface has a ceiling of names
// (docs/api-surface.md), and a fifth control is a new key, not a new name.

/** A text input, select or text area on a widget: box, colours and focus ring. */
const text = style({
  boxSizing: 'border-box',
  width: '100%',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  // A field's label may set its own weight and size (field): the control keeps the body's.
  fontWeight: 400,
  lineHeight: 1.4,
  // Inputs and selects the same height whatever the browser's own select metrics.
  minHeight: '2.5rem',
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});

/**
 * One form density (issue 39, item 4): a field's label, small and semi-bold, above its control
 * (text), the same in the account panels, the service editor and the playground. The wrapper
 * carries the label's type, so a <label> wrapping its control needs no class of its own.
 */
const field = style({
  display: 'grid',
  gap: vars.space.xs,
  alignContent: 'start',
  minWidth: 0,
  fontSize: vars.fontSize.sm,
  fontWeight: 600,
});

/** Radios and check boxes in the theme's colour, a little larger than the browser's. */
const choice = style({
  width: '1.1rem',
  height: '1.1rem',
  margin: 0,
  accentColor: vars.color.primary,
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
});

/** A file input whose button is an outlined pill of the theme, not the browser's grey button. */
const file = style({
  maxWidth: '100%',
  color: vars.color.textMuted,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.sm,
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  selectors: {
    '&::file-selector-button': {
      marginInlineEnd: vars.space.sm,
      padding: `${vars.space.xs} ${vars.space.md}`,
      border: `2px solid ${vars.color.primary}`,
      borderRadius: vars.radius.pill,
      background: 'transparent',
      color: vars.color.primary,
      font: 'inherit',
      fontWeight: 700,
      cursor: 'pointer',
    },
    '&:hover::file-selector-button': { background: vars.color.surfaceRaised },
    '&:disabled::file-selector-button': { opacity: 0.5, cursor: 'not-allowed' },
  },
});

/**
 * The widgets' form controls, one class each, for a consumer's forms to match the widgets':
 * `field` (a label above its control), `text` (text inputs, selects, text areas), `choice`
 * (radios and check boxes) and `file` (file inputs).
 */
export const formControls = { field, text, choice, file };
