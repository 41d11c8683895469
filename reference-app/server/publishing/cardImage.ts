import { Jimp, JimpMime } from 'jimp';

// A service's picture, as uploaded by its owner, becomes a card image: cropped to the card's
// 16:9 shape and scaled to twice the desktop card width (330 px, product-rules §9) for sharp
// screens. Re-encoding also drops whatever the upload carried besides pixels (metadata, scripts
// in SVG are not accepted at all).

export const CARD_WIDTH = 660;
export const CARD_HEIGHT = 372;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'] as const;

export class ImageError extends Error {
  override name = 'ImageError';
}

export async function cardImage(bytes: Uint8Array): Promise<{ bytes: Buffer; contentType: string }> {
  let image;
  try {
    image = await Jimp.read(Buffer.from(bytes));
  } catch (error) {
    throw new ImageError('The image could not be read: upload a PNG, JPEG, GIF or BMP file', { cause: error });
  }
  image.cover({ w: CARD_WIDTH, h: CARD_HEIGHT });
  return { bytes: await image.getBuffer(JimpMime.jpeg, { quality: 85 }), contentType: 'image/jpeg' };
}
