/** Texts of the code widgets; the spec's English texts are the defaults (spec §4, §8). */
export const codeStrings = {
  /** spec §4: loading state. */
  loading: 'Highlighting code...',
  /** spec §4/§8: highlight failure, shown above the raw code. */
  error: 'Failed to highlight code',
  /** spec §4: empty state. */
  empty: 'No code to display',
  /** spec §4: copy button, resting. */
  copy: 'Copy code',
  /** spec §4: copy button for 2 seconds after copying. */
  copied: 'Copied!',
  /** Accessible name of the scrollable code region; `{language}` is the language shown. */
  regionLabel: 'Code sample ({language})',
};
