// A job result may hold file references ({ url, content_type, … }, the shape the platform gives its
// stored media), and the site and the SDK show or download what such a reference points at as
// the job's output. A service must not be able to make one point at any URL it likes (a
// download from somewhere else presented as the platform's): a reference whose URL is not one of
// this platform's media files keeps its data but loses the shape, its URL moving to
// `external_url` (docs/security.md, "Limits").

const MEDIA_PATH = '/media/files/';
const MAX_DEPTH = 64;

/** True for this platform's stored media: `/media/files/<key>` on its own origin, or as a path. */
export function isOwnMedia(url: string, publicUrl: string): boolean {
  const origin = new URL(publicUrl).origin;
  if (url.startsWith(MEDIA_PATH)) return !url.includes('..');
  try {
    const parsed = new URL(url);
    return parsed.origin === origin && parsed.pathname.startsWith(MEDIA_PATH) && !parsed.pathname.includes('..');
  } catch {
    return false;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The result with every file reference that points elsewhere turned into plain data. */
export function confineFileReferences(value: unknown, publicUrl: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => confineFileReferences(item, publicUrl, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = confineFileReferences(item, publicUrl, depth + 1);
  if (typeof out.url === 'string' && typeof out.content_type === 'string' && !isOwnMedia(out.url, publicUrl)) {
    const { url, ...rest } = out;
    return { ...rest, external_url: url };
  }
  return out;
}
