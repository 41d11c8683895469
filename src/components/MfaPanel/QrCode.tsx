import { useMemo } from 'react';
import { encode } from 'uqr';
import * as styles from './MfaPanel.css';

/** The dark modules of a QR code as one SVG path (one `h1v1h-1z` square each). */
export function qrPath(text: string): { size: number; d: string } {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return { size, d };
}

/**
 * A QR code drawn as inline SVG from the text itself, rather than the server's SVG as an image
 * `data:` URL: the embeds' strict CSP need not allow `img-src data:`, and it takes the theme's
 * colours.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, d } = useMemo(() => qrPath(text), [text]);
  return (
    <svg className={styles.qr} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect className={styles.qrLight} width={size} height={size} />
      <path className={styles.qrDark} d={d} />
    </svg>
  );
}
