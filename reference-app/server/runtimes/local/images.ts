import { Jimp, ResizeStrategy } from 'jimp';
import type { MediaRef } from '../runtime';
import { invalid, fileRef } from './inputs';
import type { DemoJob } from './job';

// Reading and writing images for the demo handlers. Decoding and encoding are Jimp's (pure JS:
// PNG, JPEG, BMP, GIF, TIFF); here are only the checks around them.

export type Image = InstanceType<typeof Jimp>;

/** Largest decoded image the demo accepts, so a small compressed upload cannot exhaust memory. */
export const MAX_INPUT_PIXELS = 4096 * 4096;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// A PNG states its size in the IHDR chunk right after the signature: check it before inflating.
function pngDimensions(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function checkPixels(field: string, width: number, height: number): void {
  if (width * height > MAX_INPUT_PIXELS) {
    throw invalid(
      field,
      `the image is ${width}×${height}; the local-demo runtime reads images up to ${MAX_INPUT_PIXELS / 1024 / 1024} megapixels`,
    );
  }
}

/** Decodes an image bytes buffer, refusing what is not an image with a message naming the field. */
export async function decodeImage(field: string, bytes: Uint8Array, contentType: string): Promise<Image> {
  const declared = pngDimensions(bytes);
  if (declared) checkPixels(field, declared.width, declared.height);
  let image: Image;
  try {
    image = (await Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) as Image;
  } catch (cause) {
    throw invalid(
      field,
      `is not an image the local-demo runtime can decode (PNG, JPEG, BMP, GIF or TIFF); got ${contentType || 'unknown type'}`,
      cause,
    );
  }
  checkPixels(field, image.width, image.height);
  return image;
}

/** Reads and decodes the image given as a file input. */
export async function readImage(job: DemoJob, field: string): Promise<Image> {
  const file = await job.ctx.readFile(fileRef(job.input, field));
  return decodeImage(field, file.bytes, file.contentType);
}

export async function storePng(job: DemoJob, image: Image): Promise<MediaRef> {
  const png = await image.getBuffer('image/png');
  return job.ctx.storeMedia(new Uint8Array(png.buffer, png.byteOffset, png.byteLength), 'image/png');
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
