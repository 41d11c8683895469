import { style } from '@vanilla-extract/css';
import { vars } from './vars.css';

/** The panel a self-contained widget sits in (calculator, runner): one look for all of them. */
export const widgetCard = style({
  boxSizing: 'border-box',
  display: 'grid',
  gap: vars.space.lg,
  padding: vars.space.lg,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  lineHeight: 1.5,
});
