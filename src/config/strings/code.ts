/** Texts of the code widgets; the spec's English texts are the defaults (product-rules §4, §8). */
export const codeStrings = {
  /** product-rules §4: loading state. */
  loading: 'Highlighting code...',
  /** product-rules §4/§8: highlight failure, shown above the raw code. */
  error: 'Failed to highlight code',
  /** product-rules §4: empty state. */
  empty: 'No code to display',
  /** product-rules §4: copy button, resting. */
  copy: 'Copy code',
  /** product-rules §4: copy button for 2 seconds after copying. */
  copied: 'Copied!',
  /** Accessible name of the scrollable code region; `{language}` is the language shown. */
  regionLabel: 'Code sample ({language})',
};
