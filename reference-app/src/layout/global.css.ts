import { globalStyle } from '@vanilla-extract/css';
import { vars } from '@limelight/widgets/theme/contract';

// Page-level resets only; every widget styles itself.
globalStyle('*, *::before, *::after', { boxSizing: 'border-box' });
globalStyle('html, body', { margin: 0, padding: 0 });
globalStyle('body', {
  minHeight: '100vh',
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  lineHeight: 1.5,
});
globalStyle('a', { color: vars.color.primary });
