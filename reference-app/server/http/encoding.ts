import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';

// Content negotiation and compression shared by the static files, the catalogue cache and the
// API's JSON answers (docs/deploy.md, "Compression").

export type Encoding = 'br' | 'gzip';
/** Bytes a Response accepts as its body. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** Bodies smaller than this go out as they are: compressing them saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;

/** Media types worth compressing (text formats; images and archives are compressed already). */
export const isCompressibleType = (type: string | null | undefined) =>
  !!type && /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/i.test(type);

/**
 * The encoding to answer with for an Accept-Encoding header, among those `available`: brotli
 * before gzip, honouring `q=0` refusals and `*`. undefined means identity.
 */
export function preferredEncoding(
  acceptEncoding: string | null | undefined,
  available: { br?: unknown; gzip?: unknown } = { br: true, gzip: true },
): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = available.br ? weightOf('br') : 0;
  const gz = available.gzip ? Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0) : 0;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return undefined;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses off the event loop (zlib's thread pool). `level` 'fast' suits answers made per
 * request; 'best' suits bodies compressed once and served many times.
 */
export async function compress(body: Uint8Array, encoding: Encoding, level: 'fast' | 'best'): Promise<Bytes> {
  if (encoding === 'br') {
    return (await brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: level === 'best' ? 11 : 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    })) as Bytes;
  }
  return (await gzipAsync(body, { level: level === 'best' ? 9 : 6 })) as Bytes;
}

/** Adds `value` to the Vary header without repeating it. */
export function appendVary(current: string | null | undefined, value: string): string {
  if (!current) return value;
  const names = current.split(',').map((v) => v.trim().toLowerCase());
  return names.includes(value.toLowerCase()) || names.includes('*') ? current : `${current}, ${value}`;
}
