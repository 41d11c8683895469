import { createHash } from 'node:crypto';
import { escapeHtml } from '../mail/templates';

// Cover images of the seed services, drawn on request (the machine may have no internet): a
// gradient and a few shapes whose colours and layout derive from the name, plus its initials.
// The same name always gives the same picture.

export function modelImageSvg(name: string): string {
  const digest = createHash('sha256').update(name).digest();
  const hue = (digest[0]! * 360) / 256;
  const hue2 = (hue + 40 + (digest[1]! % 120)) % 360;
  const words = name.split(/[^a-z0-9]+/i).filter(Boolean);
  const initials = (words.length > 1 ? words[0]![0]! + words[1]![0]! : (words[0] ?? '?').slice(0, 2)).toUpperCase();
  const shapes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const x = (digest[2 + i * 3]! / 255) * 640;
    const y = (digest[3 + i * 3]! / 255) * 400;
    const r = 30 + (digest[4 + i * 3]! / 255) * 110;
    const op = (0.12 + (digest[20 + i]! / 255) * 0.25).toFixed(2);
    shapes.push(`<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r.toFixed(0)}" fill="#fff" fill-opacity="${op}"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400" role="img" aria-label="${escapeHtml(name)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue.toFixed(0)},70%,45%)"/><stop offset="1" stop-color="hsl(${hue2.toFixed(0)},65%,22%)"/></linearGradient></defs>
<rect width="640" height="400" fill="url(#g)"/>${shapes.join('')}
<text x="320" y="235" text-anchor="middle" font-family="system-ui,sans-serif" font-size="120" font-weight="700" fill="#fff" fill-opacity="0.92">${escapeHtml(initials)}</text>
</svg>`;
}
