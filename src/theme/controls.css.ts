import { style } from '@vanilla-extract/css';
import { vars } from './vars.css';

// Apart from forms.css.ts so the sign-in overlay's bundle (which imports that) does not carry it.
/** A text input, select or text area on a widget: box, colours and focus ring. */
export const textControl = style({
  boxSizing: 'border-box',
  width: '100%',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});
