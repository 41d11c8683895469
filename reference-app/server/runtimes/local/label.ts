import { loadFont } from 'jimp';
import { SANS_16_WHITE } from 'jimp/fonts';
import type { Image } from './images';

// Every generated picture says what it is, so a demo image is never taken for the real model's.

let font: ReturnType<typeof loadFont> | undefined;

export async function labelImage(image: Image, caption: string): Promise<void> {
  if (image.width < 120 || image.height < 48) return;
  font ??= loadFont(SANS_16_WHITE);
  const loaded = await font;
  const text = `local-demo · ${caption}`;
  const maxWidth = image.width - 16;
  // Shadow first (the font is white), so the label reads on light backgrounds as well.
  image.scan(0, image.height - 28, image.width, 28, (_x, _y, idx) => {
    for (let c = 0; c < 3; c++) image.bitmap.data[idx + c] = image.bitmap.data[idx + c] * 0.45;
  });
  image.print({ font: loaded, x: 8, y: image.height - 24, text, maxWidth, maxHeight: 20 });
}
