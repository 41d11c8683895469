import { coverJpeg, ImageRefusedError } from '../media/imageDecode';

// A service's picture, as uploaded by its owner, becomes a card image: cropped to the card's
// 16:9 shape and scaled to twice the desktop card width (330 px, product-rules §9) for sharp
// screens. Re-encoding also drops whatever the upload carried besides pixels (metadata, scripts
// in SVG are not accepted at all). The declared size is checked before decoding and the work runs
// off the event loop (media/imageDecode.ts).

export const CARD_WIDTH = 660;
export const CARD_HEIGHT = 372;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'] as const;

export class ImageError extends Error {
  override name = 'ImageError';
}

export async function cardImage(bytes: Uint8Array): Promise<{ bytes: Buffer; contentType: string }> {
  try {
    return { bytes: await coverJpeg(bytes, CARD_WIDTH, CARD_HEIGHT), contentType: 'image/jpeg' };
  } catch (error) {
    if (error instanceof ImageRefusedError) {
      throw new ImageError(`The image ${error.message}: upload a PNG, JPEG, GIF or BMP file`, { cause: error });
    }
    throw error;
  }
}
