import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

/** product-rules §9: header 100px by default, logo 80, account header 70, drawer 250; md breakpoint. */
export const HEADER_HEIGHT = 100;
export const LOGO_HEIGHT = 80;
export const DRAWER_WIDTH = 250;
export const mdDown = 'screen and (max-width: 899px)';
export const smDown = 'screen and (max-width: 599px)';

export const skipLink = style({
  position: 'absolute',
  left: vars.space.md,
  top: -100,
  zIndex: 2000,
  padding: vars.space.sm,
  background: vars.color.primary,
  color: vars.color.onPrimary,
  borderRadius: vars.radius.sm,
  ':focus': { top: vars.space.sm },
});

export const header = style({
  position: 'sticky',
  top: 0,
  zIndex: vars.zIndex.header,
  height: HEADER_HEIGHT,
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.md,
  padding: `0 ${vars.space.lg}`,
  background: vars.color.background,
  borderBottom: `1px solid ${vars.color.surfaceRaised}`,
  '@media': { [smDown]: { padding: `0 ${vars.space.sm}`, gap: vars.space.sm } },
});

export const brand = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.sm,
  color: vars.color.text,
  textDecoration: 'none',
  fontWeight: 800,
  fontSize: vars.fontSize.lg,
  flexShrink: 0,
});

export const logo = style({ height: LOGO_HEIGHT, width: LOGO_HEIGHT, '@media': { [smDown]: { height: 48, width: 48 } } });

export const brandTitle = style({
  '@media': { [smDown]: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } },
});

export const searchSlot = style({ flex: '1 1 auto', minWidth: 0, maxWidth: 520 });

export const desktopNav = style({
  display: 'flex',
  alignItems: 'center',
  gap: vars.space.xs,
  '@media': { [mdDown]: { display: 'none' } },
});

export const navList = style({ display: 'flex', alignItems: 'center', gap: vars.space.xs, listStyle: 'none', margin: 0, padding: 0 });

export const navLink = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  padding: `${vars.space.sm} ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  color: vars.color.text,
  background: 'transparent',
  border: 0,
  font: 'inherit',
  fontWeight: 600,
  textDecoration: 'none',
  cursor: 'pointer',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  selectors: { '&[aria-current="page"]': { color: vars.color.primary } },
});

export const submenu = style({ position: 'relative' });

export const submenuList = style({
  position: 'absolute',
  top: '100%',
  right: 0,
  minWidth: 200,
  margin: 0,
  padding: vars.space.xs,
  listStyle: 'none',
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.popup,
  zIndex: vars.zIndex.popup,
});

globalStyle(`${submenuList} a`, { display: 'block', width: '100%' });

export const userSlot = style({ flexShrink: 0 });

export const menuToggle = style([
  navLink,
  {
    display: 'none',
    fontSize: vars.fontSize.lg,
    '@media': { [mdDown]: { display: 'inline-flex' } },
  },
]);

export const drawerBackdrop = style({
  position: 'fixed',
  inset: 0,
  background: vars.color.backdrop,
  zIndex: vars.zIndex.dialog,
  border: 0,
  padding: 0,
});

export const drawer = style({
  position: 'fixed',
  top: 0,
  right: 0,
  bottom: 0,
  width: DRAWER_WIDTH,
  padding: vars.space.md,
  background: vars.color.surface,
  zIndex: vars.zIndex.dialog,
  overflowY: 'auto',
  boxShadow: vars.shadow.dialog,
});

export const drawerHeader = style({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' });
export const drawerTitle = style({ margin: 0, fontSize: vars.fontSize.lg });
export const drawerList = style({ listStyle: 'none', margin: `${vars.space.md} 0`, padding: 0, display: 'grid', gap: vars.space.xs });
export const drawerGroupTitle = style({
  margin: `${vars.space.md} 0 ${vars.space.xs}`,
  fontSize: vars.fontSize.sm,
  color: vars.color.textMuted,
  textTransform: 'uppercase',
  letterSpacing: '0.08em',
});

export const main = style({ minHeight: `calc(100vh - ${HEADER_HEIGHT}px)` });

export const footer = style({
  marginTop: vars.space.xxl,
  padding: `${vars.space.xl} ${vars.space.lg}`,
  background: vars.color.surface,
  borderTop: `1px solid ${vars.color.surfaceRaised}`,
});

export const footerColumns = style({
  display: 'grid',
  gridTemplateColumns: 'repeat(3, 1fr)',
  gap: vars.space.lg,
  maxWidth: 1100,
  margin: '0 auto',
  '@media': { [smDown]: { gridTemplateColumns: '1fr' } },
});

export const footerTitle = style({ margin: `0 0 ${vars.space.sm}`, fontSize: vars.fontSize.md });
export const footerList = style({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: vars.space.xs });
export const footerLink = style({
  color: vars.color.textMuted,
  textDecoration: 'none',
  ':hover': { color: vars.color.text, textDecoration: 'underline' },
});
export const footerBottom = style({
  maxWidth: 1100,
  margin: `${vars.space.lg} auto 0`,
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'space-between',
  gap: vars.space.md,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.sm,
});
export const socialList = style({ display: 'flex', gap: vars.space.md, listStyle: 'none', margin: 0, padding: 0 });
