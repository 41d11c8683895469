import { Jimp } from 'jimp';
import sharp, { type Sharp } from 'sharp';
import { MAX_IMAGE_PIXELS, readImageHeader, type ImageHeader } from './imageHeader';

// Decoding uploaded images without freezing the server: the declared size is checked from the
// header first (imageHeader.ts), then libvips (sharp) decodes and resizes on libuv's thread pool,
// off the event loop. BMP, which libvips does not read, goes through Jimp on the event loop and is
// therefore held to a smaller size (docs/security.md, "Limits").

/** BMP is decoded on the event loop (Jimp): at most 4 megapixels, about 150 ms of work. */
export const MAX_BMP_PIXELS = 2048 * 2048;

export class ImageRefusedError extends Error {
  override name = 'ImageRefusedError';
  constructor(
    /** `unknown`: no image format read here; `too_large`: over the limit; `corrupt`: the decoder failed. */
    readonly reason: 'unknown' | 'too_large' | 'corrupt',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

const megapixels = (pixels: number) => `${Math.round((pixels / 1024 / 1024) * 10) / 10} megapixels`;

/**
 * The header of an image the platform will decode; refuses, before any decoding, bytes that are
 * no image it reads and images that declare more than the limit.
 */
export function checkImageHeader(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): ImageHeader {
  const header = readImageHeader(bytes);
  if (!header) throw new ImageRefusedError('unknown', 'is not a PNG, JPEG, GIF, BMP, TIFF or WebP image');
  const limit = header.format === 'bmp' ? Math.min(maxPixels, MAX_BMP_PIXELS) : maxPixels;
  if (header.width === 0 || header.height === 0)
    throw new ImageRefusedError('corrupt', `declares an empty size (${header.width}×${header.height})`);
  if (header.width * header.height > limit) {
    throw new ImageRefusedError(
      'too_large',
      `is ${header.width}×${header.height} pixels (${megapixels(header.width * header.height)}); the limit for ${header.format.toUpperCase()} images is ${megapixels(limit)}`,
    );
  }
  return header;
}

function decoder(bytes: Uint8Array, header: ImageHeader, maxPixels: number): Promise<Sharp> | Sharp {
  if (header.format !== 'bmp') {
    // limitInputPixels repeats the header check inside libvips; one page of a GIF, TIFF or WebP.
    return sharp(bytes, { limitInputPixels: maxPixels, pages: 1, failOn: 'error' });
  }
  return Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).then((image) =>
    sharp(image.bitmap.data, { raw: { width: image.bitmap.width, height: image.bitmap.height, channels: 4 } }),
  );
}

async function decoded<T>(bytes: Uint8Array, maxPixels: number, finish: (image: Sharp) => Promise<T>): Promise<T> {
  const header = checkImageHeader(bytes, maxPixels);
  try {
    return await finish(await decoder(bytes, header, maxPixels));
  } catch (cause) {
    throw new ImageRefusedError('corrupt', `could not be decoded as ${header.format.toUpperCase()} (${(cause as Error).message})`, {
      cause,
    });
  }
}

/** The image's pixels as RGBA, 8 bits a channel. */
export function decodeRgba(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): Promise<{ data: Buffer; width: number; height: number }> {
  return decoded(bytes, maxPixels, async (image) => {
    const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  });
}

/** The image cropped to fill width×height and encoded as JPEG (metadata dropped). */
export function coverJpeg(bytes: Uint8Array, width: number, height: number, quality = 85): Promise<Buffer> {
  return decoded(bytes, MAX_IMAGE_PIXELS, (image) =>
    image.rotate().resize(width, height, { fit: 'cover' }).flatten({ background: '#ffffff' }).jpeg({ quality }).toBuffer(),
  );
}
