import { createHash } from 'node:crypto';
import { darkValues } from '@limelight/widgets/theme/tokens';
import { NOT_COVERS } from './examples';

// The designed cover of a service that has no picture of its own (issue 50, item 1;
// docs/security.md, "Covers"): a card in the dark theme's palette with a glow in the service's
// own colour (derived from its id), the glyph and title of its category and its name. Drawn on
// request as SVG, the same bytes for the same service, never a demo run's output and never a
// picture from another host.

export const COVER_WIDTH = 640;
export const COVER_HEIGHT = 400;

/** Bumped when the drawing changes, so browsers holding the old one (cached for a year) fetch the new. */
const DESIGN = '1';

/** What a cover is drawn from. */
export interface CoverSubject {
  id: string;
  /** display_name; null or blank draws the id. */
  name: string | null;
  /** The category's id (it picks the glyph) and title (printed); null when the service has none. */
  category: { id: string; title: string } | null;
}

const { color } = darkValues;

/**
 * Category glyphs, drawn with strokes in a 96×96 box. Services in a category the list does not
 * know get the generic spark.
 */
const PICTURE =
  '<rect x="10" y="18" width="76" height="60" rx="8"/><path d="M14 70l22-24 16 16 10-10 20 20"/><circle cx="64" cy="36" r="7"/>';
const WAVE = '<path d="M8 48h8M24 34v28M34 22v52M44 38v20M54 14v68M64 30v36M74 40v16M84 48h4"/>';
const FILM = '<rect x="8" y="20" width="80" height="56" rx="8"/><path d="M40 36v24l20-12z"/>';
const GLYPHS: Readonly<Record<string, string>> = {
  text2img: PICTURE,
  img2img: `${PICTURE}<path d="M70 8l10 10"/>`,
  upscaling: '<rect x="30" y="30" width="36" height="36" rx="4"/><path d="M10 26V10h16M86 26V10H70M10 70v16h16M86 70v16H70"/>',
  llm: '<path d="M14 18h68a6 6 0 0 1 6 6v36a6 6 0 0 1-6 6H42L26 80V66H14a6 6 0 0 1-6-6V24a6 6 0 0 1 6-6z"/><path d="M22 34h52M22 48h36"/>',
  tts: `${WAVE}`,
  'voice-cloning': `${WAVE}<circle cx="48" cy="86" r="4"/>`,
  stt: '<path d="M8 30h6M20 20v20M30 24v12M40 14v32"/><path d="M52 60h36M52 72h28M52 84h32"/>',
  music: '<path d="M34 72V22l44-10v50"/><circle cx="26" cy="72" r="10"/><circle cx="70" cy="62" r="10"/>',
  text2video: FILM,
  img2video: `${FILM}<path d="M8 32h80"/>`,
  animation: '<circle cx="48" cy="22" r="10"/><path d="M48 32v28M48 60L32 84M48 60l16 24M28 44l20-6 22 10"/>',
  lipsync: '<path d="M16 48c10-14 54-14 64 0c-10 18-54 18-64 0z"/><path d="M16 48h64"/>',
  '3d': '<path d="M48 10l36 20v36L48 86 12 66V30z"/><path d="M12 30l36 20 36-20M48 50v36"/>',
  'face-swap': '<circle cx="30" cy="40" r="18"/><circle cx="66" cy="56" r="18"/><path d="M26 80h-12v-12M70 16h12v12"/>',
  'background-removal':
    '<path d="M10 10h16M36 10h16M62 10h16M10 86h16M36 86h16M62 86h16M10 10v16M10 36v16M10 62v16M86 20v16M86 46v16M86 72v14"/><circle cx="48" cy="48" r="20"/>',
  captioning: '<path d="M8 48c16-26 64-26 80 0c-16 26-64 26-80 0z"/><circle cx="48" cy="48" r="12"/>',
  ocr: '<path d="M10 26V10h16M86 26V10H70M10 70v16h16M86 70v16H70"/><path d="M30 30h36M48 30v38"/>',
  embeddings:
    '<circle cx="20" cy="70" r="5"/><circle cx="40" cy="30" r="5"/><circle cx="60" cy="56" r="5"/><circle cx="78" cy="22" r="5"/><path d="M12 86h74M12 86V10"/>',
};
const SPARK = '<path d="M48 10c4 22 16 34 38 38c-22 4-34 16-38 38c-4-22-16-34-38-38c22-4 34-16 38-38z"/>';

/**
 * Text as SVG character data: markup characters escaped, and characters XML forbids (control
 * characters, lone surrogates) dropped, so any name stays text and the document stays well-formed.
 */
export function escapeXml(value: string): string {
  return value
    .replace(
      // Control characters are exactly what this drops.
      // eslint-disable-next-line no-control-regex
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Up to `lines` lines of at most `width` characters, broken at spaces or slashes; an ellipsis ends a cut. */
export function wrapText(text: string, width: number, lines: number): string[] {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  const out: string[] = [];
  let rest = chars;
  while (rest.length && out.length < lines) {
    if (rest.length <= width) {
      out.push(rest.join(''));
      rest = [];
      break;
    }
    const head = rest.slice(0, width + 1);
    let cut = Math.max(head.lastIndexOf(' '), head.lastIndexOf('/') + 1, head.lastIndexOf('-') + 1);
    if (cut < width / 2) cut = width;
    out.push(rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === ' ') rest = rest.slice(1);
  }
  if (rest.length)
    out[out.length - 1] = `${[...out[out.length - 1]!]
      .slice(0, width - 1)
      .join('')
      .trimEnd()}…`;
  return out;
}

/** The service's own hue, 0–359, from its id. */
export const hueOf = (id: string) => createHash('sha256').update(id).digest().readUInt16BE(0) % 360;

/** The cover of a service: an SVG document (640×400), the same for the same subject. */
export function coverSvg(subject: CoverSubject): string {
  const digest = createHash('sha256').update(subject.id).digest();
  const hue = hueOf(subject.id);
  const hue2 = (hue + 35 + (digest[2]! % 50)) % 360;
  const shown = subject.name?.trim() || subject.id;
  // A slash-named service ("owner/name") shows its name large and its owner above it.
  const slash = shown.lastIndexOf('/');
  const owner = slash > 0 && slash < shown.length - 1 ? shown.slice(0, slash) : '';
  const title = owner ? shown.slice(slash + 1) : shown;
  const lines = wrapText(title, 22, 2);
  const nameSize = lines.length > 1 ? 40 : [...lines[0]!].length > 14 ? 44 : 56;
  // The name sits at the bottom, its owner above it, clear of the category's label.
  const nameTop = 340 - (lines.length - 1) * (nameSize + 6);
  const glyph = (subject.category && GLYPHS[subject.category.id]) || SPARK;
  const label = subject.category?.title ?? 'AI service';
  // Soft rings placed by the id, so two services of one category differ at a glance too.
  const rings = [0, 1, 2]
    .map((i) => {
      const cx = 360 + (digest[3 + i * 3]! / 255) * 280;
      const cy = (digest[4 + i * 3]! / 255) * 400;
      const r = 40 + (digest[5 + i * 3]! / 255) * 120;
      return `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${r.toFixed(0)}" fill="none" stroke="${color.text}" stroke-opacity="0.08" stroke-width="2"/>`;
    })
    .join('');
  const text = (content: string, y: number, size: number, fill: string, weight: number) =>
    `<text x="48" y="${y}" font-family="system-ui,-apple-system,'Segoe UI',Roboto,sans-serif" font-size="${size}" font-weight="${weight}" fill="${fill}">${escapeXml(content)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${escapeXml(`${shown}, ${label}`)}">`,
    '<defs>',
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color.surfaceRaised}"/><stop offset="1" stop-color="${color.background}"/></linearGradient>`,
    `<radialGradient id="glow" cx="0.8" cy="0.2" r="0.9"><stop offset="0" stop-color="hsl(${hue},62%,46%)" stop-opacity="0.75"/><stop offset="0.55" stop-color="hsl(${hue2},55%,30%)" stop-opacity="0.35"/><stop offset="1" stop-color="${color.background}" stop-opacity="0"/></radialGradient>`,
    '</defs>',
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#bg)"/>`,
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="url(#glow)"/>`,
    rings,
    `<g transform="translate(48 36)" fill="none" stroke="${color.primary}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">${glyph}</g>`,
    text(label.toUpperCase(), 164, 20, color.primary, 700),
    owner ? text(wrapText(owner, 40, 1)[0]!, nameTop - nameSize - 8, 22, color.textMuted, 500) : '',
    ...lines.map((line, i) => text(line, nameTop + i * (nameSize + 6), nameSize, color.text, 800)),
    '</svg>',
  ].join('');
}

/** Changes whenever what the cover shows changes: the query of its URL, so a URL's bytes never change. */
export function coverVersion(row: { id: string; display_name: string | null; model_category: unknown }): string {
  return createHash('sha256')
    .update(JSON.stringify([DESIGN, row.id, row.display_name, row.model_category ?? null]))
    .digest('hex')
    .slice(0, 12);
}

/** Where the platform serves a service's designed cover (site-relative). */
export const COVER_PATH = '/media/covers/';
export const coverPath = (row: { id: string; display_name: string | null; model_category: unknown }) =>
  `${COVER_PATH}${encodeURIComponent(row.id)}.svg?v=${coverVersion(row)}`;

/** A stored model_category (a string, a list or an object keyed by id) as its category ids. */
export function categoryIds(value: unknown): string[] {
  const ids =
    typeof value === 'string' ? [value] : Array.isArray(value) ? value : value && typeof value === 'object' ? Object.keys(value) : [];
  return ids.filter((id): id is string => typeof id === 'string' && id.trim() !== '').map((id) => id.trim());
}

/** Where a stored cover may live: files the platform stores (uploads) and the example pictures. */
const OWN_MEDIA = /^\/media\/(files|examples)\/[^/?#\\]+$/;

/**
 * The cover a service shows, site-relative (docs/security.md, "Covers"): its stored picture when
 * that is a file the platform serves itself (an upload, a real example's picture), else its
 * designed cover. A URL on another host, a placeholder, any other path and a demo run's output
 * (databases seeded before issue 50 hold them) all get the designed cover, so a visitor's browser
 * fetches covers from the site alone.
 */
export function serviceCover(
  row: { id: string; display_name: string | null; model_category: unknown; display_img_url: string | null },
  notCovers: ReadonlySet<string> = NOT_COVERS,
): string {
  const stored = row.display_img_url?.trim() ?? '';
  const own = OWN_MEDIA.test(stored) && !/placeholder/i.test(stored) && !notCovers.has(stored);
  return own ? stored : coverPath(row);
}
