import type { ModelDescriptor } from '../api/types';

// product-rules §3/§9: a missing or placeholder image falls back to a default "404" image. It is bundled
// as an SVG data URI so it needs no request and no asset pipeline in any embed.
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 160">' +
  '<rect width="160" height="160" rx="16" fill="#2a1f3d"/>' +
  '<path d="M40 112l24-30 18 20 14-16 24 26z" fill="#4a3d63"/>' +
  '<circle cx="112" cy="52" r="10" fill="#4a3d63"/>' +
  '<text x="80" y="70" text-anchor="middle" font-family="Arial,sans-serif" font-size="34" font-weight="700" fill="#c6f432">404</text>' +
  '</svg>';

/** The default image shown when a service has none (or only a placeholder). */
export const FALLBACK_IMAGE = `data:image/svg+xml,${encodeURIComponent(svg)}`;

/**
 * True for an image URL that stands for "no image": missing, blank, or a file named as a
 * placeholder (e.g. `.../placeholder.png`), which is how seeded and imported services mark it.
 */
export function isPlaceholderImage(url: string | null | undefined): boolean {
  if (typeof url !== 'string' || !url.trim()) return true;
  const file = url.split(/[?#]/)[0]!.split('/').pop() ?? '';
  return /placeholder/i.test(file);
}

/** The image to show for a service: its own, or the fallback. */
export function modelImage(model: Pick<ModelDescriptor, 'display_img_url'>): string {
  return isPlaceholderImage(model.display_img_url) ? FALLBACK_IMAGE : model.display_img_url!.trim();
}
