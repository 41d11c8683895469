import { style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

export const tablist = style({
  display: 'flex',
  gap: vars.space.xs,
  // Tight above and below, so the playground's result shows at 1280×800 (issue 39, item 5).
  margin: `${vars.space.md} 0 ${vars.space.sm}`,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const tab = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  border: 0,
  borderBottom: '3px solid transparent',
  marginBottom: -1,
  background: 'transparent',
  color: vars.color.textMuted,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  selectors: {
    '&[aria-selected="true"]': { color: vars.color.text, borderBottomColor: vars.color.primary },
    '&:hover': { color: vars.color.text },
    '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
});

export const panel = style({
  minWidth: 0,
  selectors: { '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 4 } },
});

export const apiPanel = style({ display: 'grid', gap: vars.space.md });
export const apiKeyBox = style({ display: 'grid', gap: vars.space.sm, justifyItems: 'start' });
export const muted = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const sampleTitle = style({ margin: `${vars.space.sm} 0 0`, fontSize: vars.fontSize.md });
