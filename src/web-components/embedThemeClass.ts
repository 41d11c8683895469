/**
 * `useThemeClass` as the script-tag bundles see it (scripts/rollup/cdn.mjs aliases
 * src/config/useThemeClass.ts to this file). Embeds always render with the theme `inherit` (the
 * theme is on `:host`), for which the real hook returns '' too; this one just does not import
 * the dark and light theme stylesheets.
 */
export function useThemeClass(): string {
  return '';
}
