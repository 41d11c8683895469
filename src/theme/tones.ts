import { vars } from './vars.css';

// Button tones shared by the widgets' and the site's button recipes, so every destructive action
// (delete a key, a service, a factor; cancel a subscription) looks the same wherever it is
// (issue 39, item 4). The danger pair is one of the contrast pairs checked in tokens.ts.

/** The look of a button whose action destroys something: danger surface and text, danger border. */
export const destructiveTone = {
  background: vars.color.dangerSurface,
  color: vars.color.onDanger,
  borderColor: vars.color.onDanger,
  ':hover': { background: vars.color.dangerSurface, textDecoration: 'underline' },
} as const;
