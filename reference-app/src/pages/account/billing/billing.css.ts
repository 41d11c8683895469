import { style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

/** A receipt's fields as label/value pairs; one column on a phone. */
export const receipt = style({
  display: 'grid',
  gridTemplateColumns: 'max-content minmax(0, 1fr)',
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: `0 0 ${vars.space.sm}`,
  overflowWrap: 'anywhere',
  '@media': { 'screen and (max-width: 599px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
});

/** The confirmation after paying stands out from the panels around it. */
export const confirmation = style({ borderColor: vars.color.primary });
