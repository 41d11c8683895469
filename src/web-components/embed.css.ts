import { assignVars, globalStyle, style } from '@vanilla-extract/css';
import { vars } from '../theme/vars.css';
import { darkValues, lightValues } from '../theme/tokens';

/*
 * How the theme reaches a widget inside its shadow root, and how a host page re-themes it.
 *
 * The theme tokens are custom properties (`--lime-color-primary`, ...), and custom properties
 * inherit through the shadow boundary. They are set on `:host`, i.e. on the element itself:
 *   - `theme="dark"` (or no attribute) sets the dark values, `theme="light"` the light ones;
 *     `theme="inherit"` sets none, so every token comes from the page.
 *   - A page rule that matches the element (`lime-service-search { --lime-color-primary: … }`,
 *     an inline style, a class on the element) wins over `:host`: for normal declarations the
 *     outer tree beats the shadow tree. So single tokens can be overridden per element.
 *   - A value set on an ancestor (`:root { --lime-color-primary: … }`) is only inherited, and
 *     an inherited value loses to the one `:host` sets. To theme all widgets from `:root`, use
 *     `theme="inherit"` and define every token, or target the elements themselves.
 * Nothing inside is themed by a class (the widgets render with the provider's theme `inherit`),
 * so nothing inside the shadow root blocks the inheritance from the host.
 *
 * Isolation from hostile page CSS: page selectors never match inside the shadow root; only
 * inherited properties (font, colour, line-height, text-transform, visibility, ...) and the
 * host's own box can be touched. `:host { all: initial }` resets the inherited ones, but a page
 * rule on the element (`* { all: unset }`) beats `:host`, so the wrapper div below — which no
 * page rule can reach — resets them again and sets our font and colour. `all` never touches
 * custom properties, so the tokens still flow in.
 */

const themeVars = (values: typeof darkValues) => assignVars(vars, values);

/** The light theme's tokens that differ from the dark theme's (sizes, fonts, ... are shared). */
function lightOverrides(): Record<string, string> {
  const dark: Record<string, string> = themeVars(darkValues);
  const light: Record<string, string> = themeVars(lightValues);
  return Object.fromEntries(Object.entries(light).filter(([name, value]) => dark[name] !== value));
}

globalStyle(':host', {
  all: 'initial',
  display: 'block',
});

globalStyle(':host([hidden])', { display: 'none' });

globalStyle(':host(:not([theme="inherit"]))', {
  vars: themeVars(darkValues),
  colorScheme: 'dark',
});

globalStyle(':host([theme="light"])', {
  vars: lightOverrides(),
  colorScheme: 'light',
});

/** The one element the widget's own markup sits in; page CSS cannot reach it. */
export const root = style({
  all: 'initial',
  display: 'block',
  boxSizing: 'border-box',
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.md,
  lineHeight: 1.5,
  color: vars.color.text,
  textAlign: 'start',
  WebkitFontSmoothing: 'antialiased',
});

// The reset the reference app puts on its pages (`* { box-sizing: border-box }`), which the
// widgets' layouts assume. Zero specificity (:where), so any widget rule still wins.
globalStyle(`:where(${root}) *, :where(${root}) *::before, :where(${root}) *::after`, { boxSizing: 'border-box' });

/** Where popups (results list, dialog) are portalled: inside the shadow root, above the widget. */
export const portal = style({
  display: 'contents',
});
