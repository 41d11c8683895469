/**
 * Stylesheets adopted by every widget's shadow root.
 *
 * Why constructable stylesheets: a page served with `style-src 'self'` refuses `<style>`
 * elements and style attributes, and a `<link>` to our CSS would be refused too when the
 * bundle is loaded from a CDN origin. CSSOM (`new CSSStyleSheet()` + `replaceSync`) is not
 * governed by `style-src`, so CSS that arrives inside our JavaScript can be applied under the
 * strictest policy, without a second request and without a flash of unstyled content.
 *
 * Who fills the registry:
 * - the script-tag bundles (dist/cdn): the build turns every vanilla-extract CSS module into a
 *   `registerStyles("...")` call, so each chunk carries exactly the CSS of its modules and two
 *   bundles on one page share the chunks (and the sheets) they have in common;
 * - the npm build of `@limelight/widgets/web-components`: the same, through the build that makes it;
 * - development (Vite, Vitest browser mode, Storybook): vanilla-extract's dev plugin injects
 *   `<style>` tags into the document; {@link adoptStyles} copies them once as a fallback.
 */

const cssTexts: string[] = [];
const sheets: CSSStyleSheet[] = [];
const roots = new Set<ShadowRoot>();

function toSheet(css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  return sheet;
}

const canConstruct = () => typeof CSSStyleSheet !== 'undefined' && 'replaceSync' in CSSStyleSheet.prototype;

/**
 * Adds one module's CSS. Called by build output in module-evaluation order, which is the order
 * vanilla-extract relies on. Roots that already adopted get the new sheet too (a chunk loaded
 * later, e.g. by a dynamic import, may bring CSS for widgets already on the page).
 */
export function registerStyles(css: string): void {
  if (!css || cssTexts.includes(css)) return;
  cssTexts.push(css);
  if (!canConstruct()) return;
  const sheet = toSheet(css);
  sheets.push(sheet);
  for (const root of roots) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/**
 * Development only: vanilla-extract's Vite plugin puts the CSS into `<style>` tags in `<head>`.
 * Scanned on every adoption (deduplicated), so widgets whose modules load later are covered.
 */
function adoptDocumentDevStyles(): void {
  if (typeof document === 'undefined') return;
  for (const style of document.querySelectorAll<HTMLStyleElement>('style[data-vite-dev-id]')) {
    if (/\.css\.ts|vanilla\.css/.test(style.dataset.viteDevId ?? '')) registerStyles(style.textContent ?? '');
  }
}

/** Gives a shadow root every registered sheet (and any registered later, until released). */
export function adoptStyles(root: ShadowRoot): void {
  if (process.env.NODE_ENV !== 'production') adoptDocumentDevStyles();
  if (!canConstruct()) {
    if (process.env.NODE_ENV !== 'production') {
      console.warn('[limelight] This browser lacks constructable stylesheets; widgets render unstyled.');
    }
    return;
  }
  roots.add(root);
  const missing = sheets.filter((sheet) => !root.adoptedStyleSheets.includes(sheet));
  if (missing.length > 0) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...missing];
}

/** Stops live updates for a root whose element left the document. */
export function releaseStyles(root: ShadowRoot): void {
  roots.delete(root);
}

/** The registered CSS in order (for tests and diagnostics). */
export function registeredStyles(): readonly string[] {
  return cssTexts;
}
