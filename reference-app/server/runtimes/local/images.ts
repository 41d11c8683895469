import { Jimp, ResizeStrategy } from 'jimp';
import { PNG } from 'pngjs';
import { decodeRgba, ImageRefusedError } from '../../media/imageDecode';
import { MAX_IMAGE_PIXELS } from '../../media/imageHeader';
import type { MediaRef } from '../runtime';
import { invalid, fileRef } from './inputs';
import type { DemoJob } from './job';

// Reading and writing images for the demo handlers. Decoding is libvips's (sharp; Jimp for BMP)
// after a header check, encoding pngjs's; the pixels are handled as Jimp images.

export type Image = InstanceType<typeof Jimp>;

/** Largest decoded image the demo accepts, so a small compressed upload cannot exhaust memory. */
export const MAX_INPUT_PIXELS = MAX_IMAGE_PIXELS;

/**
 * Decodes an image bytes buffer, refusing what is not an image, or declares more pixels than
 * the limit, from its header before any decoding, with a message naming the field. Decoding runs
 * on libvips's threads (media/imageDecode.ts), not on the event loop.
 */
export async function decodeImage(field: string, bytes: Uint8Array, contentType: string): Promise<Image> {
  try {
    const { data, width, height } = await decodeRgba(bytes, MAX_INPUT_PIXELS);
    return Jimp.fromBitmap({ data, width, height }) as Image;
  } catch (cause) {
    if (!(cause instanceof ImageRefusedError)) throw cause;
    if (cause.reason === 'too_large') throw invalid(field, `the image ${cause.message}`, cause);
    const formats = 'PNG, JPEG, BMP, GIF, TIFF or WebP';
    throw invalid(field, `is not an image the local-demo runtime can decode (${formats}); got ${contentType || 'unknown type'}`, cause);
  }
}

/** Reads and decodes the image given as a file input. */
export async function readImage(job: DemoJob, field: string): Promise<Image> {
  const file = await job.ctx.readFile(fileRef(job.input, field));
  return decodeImage(field, file.bytes, file.contentType);
}

export function encodePng(image: Image): Promise<Uint8Array> {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.bitmap.data);
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    png
      .pack()
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))))
      .on('error', reject);
  });
}

export async function storePng(job: DemoJob, image: Image): Promise<MediaRef> {
  return job.ctx.storeMedia(await encodePng(image), 'image/png');
}

/** A blank RGBA canvas. */
export const canvas = (width: number, height: number): Image => new Jimp({ width, height, color: 0x000000ff }) as Image;

/** A copy no larger than `maxSide` on its longest side (bilinear: several times faster than bicubic in Jimp). */
export function fitWithin(image: Image, maxSide: number): Image {
  const copy = image.clone() as Image;
  const longest = Math.max(copy.width, copy.height);
  if (longest > maxSide) copy.scaleToFit({ w: maxSide, h: maxSide, mode: ResizeStrategy.BILINEAR });
  return copy;
}
