import { keyframes, style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';
import { pillButton } from '../page.css';

const smDown = 'screen and (max-width: 599px)';
const reduced = '(prefers-reduced-motion: reduce)';

export const root = style({ display: 'grid', gap: vars.space.lg });

export const chips = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  justifyContent: 'center',
  margin: 0,
  padding: 0,
  listStyle: 'none',
});

export const chip = style([
  pillButton,
  {
    selectors: {
      '&[aria-pressed="true"]': {
        background: vars.color.primary,
        borderColor: vars.color.primary,
        color: vars.color.onPrimary,
        fontWeight: 700,
      },
      '&:hover': { borderColor: vars.color.primary },
    },
  },
]);

const scroll = keyframes({ from: { transform: 'translateX(0)' }, to: { transform: 'translateX(-50%)' } });

/** The visible window of the marquee; the track inside moves. */
export const viewport = style({
  overflow: 'hidden',
  maskImage: 'linear-gradient(to right, transparent, black 4%, black 96%, transparent)',
  '@media': { [reduced]: { overflowX: 'auto', maskImage: 'none' } },
});

// Seconds per card keep the speed the same whatever the number of featured models.
const durations = Object.fromEntries(
  Array.from({ length: 19 }, (_, n) => [`&[data-count="${n}"]`, { animationDuration: `${Math.max(n, 4) * 6}s` }]),
);

export const track = style({
  display: 'flex',
  width: 'max-content',
  animationName: scroll,
  animationDuration: '90s',
  animationTimingFunction: 'linear',
  animationIterationCount: 'infinite',
  selectors: {
    ...durations,
    [`${viewport}:hover &, ${viewport}:focus-within &`]: { animationPlayState: 'paused' },
  },
  '@media': { [reduced]: { animation: 'none' } },
});

/** One copy of the cards; the marquee shows two so the loop is seamless. */
export const group = style({
  display: 'flex',
  gap: vars.space.md,
  paddingRight: vars.space.md,
  margin: 0,
  listStyle: 'none',
  paddingLeft: 0,
});

/** The second copy is decorative; without motion it is not needed at all. */
export const duplicate = style([group, { '@media': { [reduced]: { display: 'none' } } }]);

/** Under 4 models: a static, centred row. */
export const staticRow = style([group, { flexWrap: 'wrap', justifyContent: 'center', paddingRight: 0 }]);

export const card = style({
  display: 'grid',
  gridTemplateRows: 'auto auto 1fr auto',
  gap: vars.space.xs,
  width: 330,
  height: '100%',
  padding: vars.space.md,
  background: vars.color.surface,
  border: `1px solid ${vars.color.surfaceRaised}`,
  borderRadius: vars.radius.lg,
  color: vars.color.text,
  textDecoration: 'none',
  selectors: {
    '&:hover': { borderColor: vars.color.primary },
    '&:focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  },
  '@media': { [smDown]: { width: 200 } },
});

export const image = style({
  display: 'block',
  width: '100%',
  aspectRatio: '16 / 10',
  objectFit: 'cover',
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
});

export const name = style({ margin: 0, fontSize: vars.fontSize.md, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.sm });
export const badge = style({
  justifySelf: 'start',
  padding: `${vars.space.xxs} ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.surfaceRaised,
  fontSize: vars.fontSize.xs,
});

const pulse = keyframes({ '0%, 100%': { opacity: 0.5 }, '50%': { opacity: 1 } });

export const placeholder = style({
  width: 330,
  height: 300,
  flex: 'none',
  borderRadius: vars.radius.lg,
  background: vars.color.skeleton,
  animation: `${pulse} 1.4s ease-in-out infinite`,
  '@media': { [smDown]: { width: 200, height: 240 }, [reduced]: { animation: 'none' } },
});

export const empty = style({ textAlign: 'center', color: vars.color.textMuted, margin: 0 });

export const actions = style({ display: 'flex', justifyContent: 'center' });

export const allButton = style({
  display: 'inline-flex',
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.pill,
  border: `2px solid ${vars.color.primary}`,
  color: vars.color.primary,
  fontWeight: 700,
  textDecoration: 'none',
  selectors: {
    '&:hover': { background: vars.color.surfaceRaised },
    '&:focus-visible': { outline: `3px solid ${vars.color.focusRing}`, outlineOffset: 3 },
  },
});
