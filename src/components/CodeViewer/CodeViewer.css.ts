import { createGlobalVar, fallbackVar, style } from '@vanilla-extract/css';
import { recipe, type RecipeVariants } from '@vanilla-extract/recipes';

import { vars } from '../../theme/vars.css';
import {
  CODE_FONT_SIZE,
  CODE_MAX_HEIGHT,
  MEDIUM_AND_DOWN_MEDIA,
  SAMPLE_FONT_SIZE,
  SAMPLE_FONT_SIZE_COMPACT,
  SAMPLE_MAX_HEIGHT,
  TOOLTIP_OFFSET_PX,
} from '../../code/constants';

/**
 * Host overrides without a style attribute: a page (or a shadow host) may set
 * `--lime-code-max-height` / `--lime-code-font-size` in its own CSS; unset, the spec's values
 * apply (product-rules §9).
 */
export const maxHeightVar = createGlobalVar('lime-code-max-height');
export const fontSizeVar = createGlobalVar('lime-code-font-size');

export const root = style({
  boxSizing: 'border-box',
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  minWidth: 0,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  overflow: 'hidden',
  fontFamily: vars.font.body,
});

export const toolbar = style({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: vars.space.sm,
  minHeight: '2.25rem',
  padding: `${vars.space.xs} ${vars.space.sm} ${vars.space.xs} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.xs,
});

export const languageLabel = style({
  fontFamily: vars.font.mono,
  textTransform: 'uppercase',
  letterSpacing: '0.06em',
});

export const status = style({
  flex: 1,
  minWidth: 0,
  fontSize: vars.fontSize.xs,
  selectors: { '&:empty': { display: 'none' } },
});

export const copyArea = style({
  position: 'relative',
  display: 'inline-flex',
  marginLeft: 'auto',
});

export const copyButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '1.875rem',
  height: '1.875rem',
  padding: 0,
  border: '1px solid currentColor',
  borderRadius: vars.radius.sm,
  background: 'transparent',
  color: 'inherit',
  cursor: 'pointer',
  ':hover': { background: 'color-mix(in srgb, currentColor 14%, transparent)' },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  selectors: { '&[data-state="copied"]': { borderColor: vars.color.primary } },
});

const tooltipBase = style({
  zIndex: vars.zIndex.popup,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surfaceRaised,
  color: vars.color.text,
  boxShadow: vars.shadow.popup,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.xs,
  lineHeight: 1.4,
  whiteSpace: 'nowrap',
  pointerEvents: 'none',
});

/**
 * Default tooltip: rendered beside the button and placed by static CSS, to its left at the
 * spec's offset of 10px, so it needs no portal and no computed style (works in a shadow root).
 */
export const tooltipInline = style([
  tooltipBase,
  {
    position: 'absolute',
    top: '50%',
    right: `calc(100% + ${TOOLTIP_OFFSET_PX}px)`,
    transform: 'translateY(-50%)',
  },
]);

/** Tooltip portalled into a host-given container; floating-ui computes its position. */
export const tooltipFloating = style([tooltipBase, { position: 'absolute', top: 0, left: 0 }]);

export const scroller = recipe({
  base: {
    margin: 0,
    padding: `${vars.space.sm} ${vars.space.md}`,
    overflow: 'auto',
    fontFamily: vars.font.mono,
    lineHeight: 1.6,
    tabSize: 2,
    ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: -2 },
  },
  variants: {
    variant: {
      default: {
        maxHeight: fallbackVar(maxHeightVar, CODE_MAX_HEIGHT),
        fontSize: fallbackVar(fontSizeVar, CODE_FONT_SIZE),
      },
      sample: {
        maxHeight: fallbackVar(maxHeightVar, SAMPLE_MAX_HEIGHT),
        fontSize: fallbackVar(fontSizeVar, SAMPLE_FONT_SIZE),
        '@media': { [MEDIUM_AND_DOWN_MEDIA]: { fontSize: fallbackVar(fontSizeVar, SAMPLE_FONT_SIZE_COMPACT) } },
      },
    },
  },
  defaultVariants: { variant: 'default' },
});
export type ScrollerVariants = RecipeVariants<typeof scroller>;

export const code = style({ fontFamily: 'inherit', fontSize: 'inherit' });

export const line = style({});

export const empty = style({
  padding: `${vars.space.lg} ${vars.space.md}`,
  fontSize: vars.fontSize.sm,
  textAlign: 'center',
});

/** The legacy copy's textarea: selectable, but neither seen nor reachable. */
export const copyBuffer = style({
  position: 'fixed',
  top: 0,
  left: 0,
  width: 1,
  height: 1,
  padding: 0,
  border: 0,
  opacity: 0,
  pointerEvents: 'none',
});

export { visuallyHidden } from '../../theme/a11y.css';
