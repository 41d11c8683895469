import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';
import * as publicLayout from './layout.css';

/** product-rules §9: the account area's collapsed header is 70px high. */
export const ACCOUNT_HEADER_HEIGHT = 70;
const { smDown } = publicLayout;

/** The account area paints its own surface, independent of page-level CSS. */
export const root = style({
  minHeight: '100vh',
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  lineHeight: 1.5,
});

// Low specificity (:where) so the navigation's and menus' own link styles win.
globalStyle(`:where(${root}) a`, { color: vars.color.primary });

// The collapsed header shares the public header's look; only its height differs.
export { skipLink } from './layout.css';
export const header = style([publicLayout.header, { height: ACCOUNT_HEADER_HEIGHT }]);
export const brand = style([publicLayout.brand, { ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 } }]);

export const logo = style({ width: 44, height: 44 });

export { brandTitle } from './layout.css';

export const spacer = style({ flex: '1 1 auto' });

/** product-rules §2: the user menu is hidden on mobile. */
export const userMenu = style({ position: 'relative', '@media': { [smDown]: { display: 'none' } } });

export const menuButton = style({
  display: 'inline-flex',
  alignItems: 'center',
  gap: vars.space.xs,
  maxWidth: '20rem',
  padding: `${vars.space.sm} ${vars.space.sm}`,
  border: 0,
  borderRadius: vars.radius.sm,
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  fontWeight: 600,
  cursor: 'pointer',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
});

export const email = style({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });

// The user menu's list is the header submenus' list.
export { submenuList as menuList } from './layout.css';

export const menuItem = style({
  display: 'block',
  width: '100%',
  padding: `${vars.space.sm} ${vars.space.md}`,
  border: 0,
  borderRadius: vars.radius.sm,
  background: 'transparent',
  color: vars.color.text,
  font: 'inherit',
  textAlign: 'left',
  textDecoration: 'none',
  cursor: 'pointer',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: -2 },
});

export const nav = style({
  display: 'flex',
  gap: vars.space.xs,
  overflowX: 'auto',
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.surfaceRaised}`,
  '@media': { [smDown]: { padding: `${vars.space.sm} ${vars.space.sm}` } },
});

export const navList = style({ display: 'flex', gap: vars.space.xs, margin: 0, padding: 0, listStyle: 'none' });

export const navLink = style({
  display: 'inline-block',
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.pill,
  color: vars.color.text,
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  ':hover': { background: vars.color.surfaceRaised },
  ':focus-visible': { outline: `2px solid ${vars.color.focusRing}`, outlineOffset: 2 },
  selectors: { '&[aria-current="page"]': { background: vars.color.primary, color: vars.color.onPrimary } },
});

/** Logout in the account navigation: only where the user menu is hidden (mobile). */
export const mobileLogout = style([
  navLink,
  {
    display: 'none',
    marginLeft: 'auto',
    border: 0,
    background: 'transparent',
    font: 'inherit',
    cursor: 'pointer',
    '@media': { [smDown]: { display: 'inline-block' } },
  },
]);

export const main = style({ minHeight: `calc(100vh - ${ACCOUNT_HEADER_HEIGHT}px)` });

globalStyle(`${publicLayout.submenuList} a`, { boxSizing: 'border-box' });

/** The way back to the catalogue from the account area (issue 39, item 4), beside the SDK menu. */
export const catalogueLink = style([navLink, { fontWeight: 600 }]);
