import { style } from '@vanilla-extract/css';
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '@limelight/widgets/theme/contract';
import { destructiveTone } from '@limelight/widgets/theme/tones';

const smDown = 'screen and (max-width: 599px)';

export const container = style({
  maxWidth: 1100,
  margin: '0 auto',
  padding: `0 ${vars.space.lg}`,
  '@media': { [smDown]: { padding: `0 ${vars.space.md}` } },
});
export const section = style([container, { paddingTop: vars.space.xl, paddingBottom: vars.space.xl }]);
export const hero = style([container, { paddingTop: vars.space.xxl, paddingBottom: vars.space.xl, textAlign: 'center' }]);
export const heroTitle = style({ fontSize: 'clamp(2rem, 5vw, 3.5rem)', lineHeight: 1.1, margin: `0 0 ${vars.space.md}` });
export const accent = style({ color: vars.color.primary });
export const lead = style({ fontSize: vars.fontSize.lg, color: vars.color.textMuted, maxWidth: 720, margin: `0 auto ${vars.space.lg}` });
export const sectionTitle = style({ fontSize: vars.fontSize.xl, margin: `0 0 ${vars.space.md}` });
export const muted = style({ color: vars.color.textMuted });

export const grid = style({ display: 'grid', gap: vars.space.md, gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))' });

export const card = style({
  position: 'relative',
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  overflow: 'hidden',
});
export const cardTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.lg });

export const button = recipe({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: vars.space.xs,
    padding: `${vars.space.sm} ${vars.space.lg}`,
    borderRadius: vars.radius.pill,
    font: 'inherit',
    fontWeight: 700,
    textDecoration: 'none',
    cursor: 'pointer',
    border: `2px solid ${vars.color.primary}`,
    ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
    // A disabled button must look it (issue 39): faded, no pointer, no hover change (below).
    ':disabled': { opacity: 0.5, cursor: 'not-allowed' },
  },
  variants: {
    tone: {
      primary: {
        background: vars.color.primary,
        color: vars.color.onPrimary,
        ':hover': { background: vars.color.primaryHover },
        selectors: { '&:disabled:hover': { background: vars.color.primary } },
      },
      outline: {
        background: 'transparent',
        color: vars.color.primary,
        ':hover': { background: vars.color.surfaceRaised },
        selectors: { '&:disabled:hover': { background: 'transparent' } },
      },
      danger: destructiveTone,
    },
  },
  defaultVariants: { tone: 'primary' },
});

export const buttonRow = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, justifyContent: 'center' });

export const ribbon = style({
  position: 'absolute',
  top: 18,
  right: -34,
  transform: 'rotate(45deg)',
  padding: `${vars.space.xxs} ${vars.space.xl}`,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  fontWeight: 800,
  fontSize: vars.fontSize.xs,
});

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.fontSize.sm });
export const th = style({ textAlign: 'left', padding: vars.space.sm, borderBottom: `2px solid ${vars.color.border}` });
export const td = style({ padding: vars.space.sm, borderBottom: `1px solid ${vars.color.surfaceRaised}` });

export const prose = style([container, { maxWidth: 760, paddingTop: vars.space.xl }]);

export const stars = style({ color: vars.color.primary, letterSpacing: 2 });

export const steps = style({
  counterReset: 'step',
  listStyle: 'none',
  padding: 0,
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))',
});

export const disclosureButton = style({
  display: 'flex',
  width: '100%',
  justifyContent: 'space-between',
  alignItems: 'center',
  padding: 0,
  background: 'transparent',
  border: 0,
  color: vars.color.text,
  font: 'inherit',
  cursor: 'pointer',
  textAlign: 'left',
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 4 },
});

export const field = style({ display: 'grid', gap: vars.space.xs, marginBottom: vars.space.md });
export const input = style({
  padding: vars.space.sm,
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: 'inherit',
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 1 },
});
export const errorText = style({
  color: vars.color.onDanger,
  background: vars.color.dangerSurface,
  padding: vars.space.xs,
  borderRadius: vars.radius.sm,
});

export const cardButton = style([
  card,
  {
    display: 'block',
    width: '100%',
    textAlign: 'left',
    color: vars.color.text,
    font: 'inherit',
    cursor: 'pointer',
    ':hover': { borderColor: vars.color.primary },
    ':focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
  },
]);

/** Small outlined pill button (filters, chips); variants add their selected state. */
export const pillButton = style({
  padding: `${vars.space.xs} ${vars.space.md}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.pill,
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  fontSize: vars.fontSize.sm,
  cursor: 'pointer',
  selectors: {
    '&:focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
});
