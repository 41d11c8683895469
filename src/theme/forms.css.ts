import { style } from '@vanilla-extract/css';
import { vars } from './vars.css';

/** The message under an invalid field, shared by every widget with a form. */
export const fieldError = style({
  margin: 0,
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.dangerSurface,
  color: vars.color.onDanger,
  fontSize: vars.fontSize.sm,
});
