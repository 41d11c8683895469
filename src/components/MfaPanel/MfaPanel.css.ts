import { style } from '@vanilla-extract/css';

// A QR code needs dark modules on a light ground whatever the theme, or scanners fail.
export const qr = style({ width: 200, height: 200, maxWidth: '100%' });
export const qrLight = style({ fill: '#ffffff' });
export const qrDark = style({ fill: '#000000' });
export const enrol = style({
  display: 'grid',
  gap: 16,
  gridTemplateColumns: 'minmax(0, 220px) minmax(0, 1fr)',
  alignItems: 'start',
  '@media': { 'screen and (max-width: 599px)': { gridTemplateColumns: '1fr' } },
});
