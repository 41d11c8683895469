import { style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

export const split = style({
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))',
});

export const block = style({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'flex-start',
  gap: vars.space.md,
  padding: vars.space.xl,
  borderRadius: vars.radius.lg,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
});

export const blockTitle = style({ margin: 0, fontSize: vars.fontSize.lg });
export const blockText = style({ margin: 0, color: vars.color.textMuted });

export const points = style({ margin: 0, paddingLeft: vars.space.lg, display: 'grid', gap: vars.space.xs });

export const sectionLead = style({ margin: `0 0 ${vars.space.lg}`, color: vars.color.textMuted, maxWidth: 760 });
