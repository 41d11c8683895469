// A job result may hold file references ({ url, content_type, … }, the shape the platform gives its
// stored media), and the site and the SDK show or download what such a reference points at as
// the job's output. A service must not be able to make one point at any URL it likes (a
// download from somewhere else presented as the platform's): a reference whose URL is not one of
// this platform's media files keeps its data but loses the shape, its URL moving to
// `external_url` (docs/security.md, "Limits").

/** True for this platform's stored media: `/media/files/<key>` on its own origin, or as a path. Self-contained. */
export function isOwnMedia(url: string, publicUrl: string): boolean {
  const mediaPath = '/media/files/';
  const origin = new URL(publicUrl).origin;
  if (url.startsWith(mediaPath)) return !url.includes('..');
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && parsed.pathname.startsWith(mediaPath) && !parsed.pathname.includes('..');
  } catch {
    return false;
  }
}

/**
 * The result with every file reference that points elsewhere turned into plain data.
 * Self-contained (it names only its arguments): a large result is confined in a data thread
 * (jobs/largeResult.ts), which is given this function's source and `isOwnMedia`.
 */
export function confineFileReferences(value: unknown, publicUrl: string, isOwn: typeof isOwnMedia = isOwnMedia): unknown {
  const maxDepth = 64;
  const walk = (item: unknown, depth: number): unknown => {
    if (depth > maxDepth) return item;
    if (Array.isArray(item)) return item.map((inner) => walk(inner, depth + 1));
    if (typeof item !== 'object' || item === null) return item;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(item)) out[key] = walk(inner, depth + 1);
    if (typeof out.url === 'string' && typeof out.content_type === 'string' && !isOwn(out.url, publicUrl)) {
      const { url, ...rest } = out;
      return { ...rest, external_url: url };
    }
    return out;
  };
  return walk(value, 0);
}
