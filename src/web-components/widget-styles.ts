/**
 * The widgets' CSS as text, for the npm build of `@limelight/widgets/web-components`.
 *
 * The npm build emits static `.css` files for React users; custom elements need the same CSS
 * inside each shadow root. After combining `dist/styles.css`, `scripts/build-lib.mjs`
 * overwrites `dist/web-components/widget-styles.js` with that text, and `index.ts` registers it.
 * In source it is empty: in development vanilla-extract's `<style>` tags are adopted instead
 * (styles.ts), and the script-tag bundles register each module's CSS themselves (cdn build).
 */
export const widgetCss: string = '';
