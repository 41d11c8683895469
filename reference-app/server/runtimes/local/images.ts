import { Jimp, ResizeStrategy } from 'jimp';
import { PNG } from 'pngjs';
import type { MediaRef } from '../runtime';
import { invalid, fileRef } from './inputs';
import type { DemoJob } from './job';

// Reading and writing images for the demo handlers. Decoding and encoding are Jimp's (pure JS:
// JPEG, BMP, GIF, TIFF) and pngjs's (PNG); here are only the checks around them.

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
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    image = declared ? await decodePngAsync(buffer) : ((await Jimp.read(buffer)) as Image);
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

// PNGs go through pngjs's streaming API rather than Jimp's synchronous one: inflating and
// deflating then run on zlib's thread pool, and a 1024×1024 image holds the event loop for tens
// of milliseconds instead of about a second.
function decodePngAsync(buffer: Buffer): Promise<Image> {
  return new Promise((resolve, reject) => {
    new PNG().parse(buffer, (error, png) => {
      if (error) reject(error);
      else resolve(Jimp.fromBitmap({ data: png.data, width: png.width, height: png.height }) as Image);
    });
  });
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
