// The size an image declares, read from its header without decoding a pixel. A few hundred bytes
// can declare 20000×20000 pixels (a PNG of zeros deflates a thousandfold, a GIF's screen is two
// 16-bit numbers), and a decoder allocates what the header declares before it finds out the data
// is missing: every place that decodes an upload first asks this module (docs/security.md,
// "Limits").

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp' | 'tiff' | 'webp';

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Largest image the platform decodes: 16 megapixels (4096×4096), 64 MB as RGBA. */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

const ascii = (bytes: Uint8Array, at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

function png(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  if (bytes.length < 24 || !ascii(bytes, 1, 'PNG\r\n\u001a\n') || bytes[0] !== 0x89 || !ascii(bytes, 12, 'IHDR')) return undefined;
  return { format: 'png', width: view.getUint32(16), height: view.getUint32(20) };
}

// Start-of-frame markers carry the size: every SOFn except DHT (C4), JPG (C8) and DAC (CC).
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    while (bytes[at] === 0xff && at < bytes.length) at++; // fill bytes
    const marker = bytes[at++]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (at + 2 > bytes.length) return undefined;
    const length = view.getUint16(at);
    if (JPEG_SOF.has(marker)) {
      if (at + 7 > bytes.length) return undefined;
      return { format: 'jpeg', height: view.getUint16(at + 3), width: view.getUint16(at + 5) };
    }
    if (length < 2) return undefined;
    at += length;
  }
  return undefined;
}

/** A GIF's logical screen, or its largest frame when a frame is larger: decoders allocate both. */
function gif(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  if (bytes.length < 10 || !(ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a'))) return undefined;
  let width = view.getUint16(6, true);
  let height = view.getUint16(8, true);
  const skipSubBlocks = (at: number) => {
    while (at < bytes.length && bytes[at] !== 0) at += bytes[at]! + 1;
    return at + 1;
  };
  const packed = bytes[10] ?? 0;
  let at = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x21) at = skipSubBlocks(at + 2);
    else if (block === 0x2c && at + 10 <= bytes.length) {
      width = Math.max(width, view.getUint16(at + 1, true) + view.getUint16(at + 5, true));
      height = Math.max(height, view.getUint16(at + 3, true) + view.getUint16(at + 7, true));
      const local = bytes[at + 9]!;
      at = skipSubBlocks(at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0) + 1);
    } else break; // trailer or truncated
  }
  return { format: 'gif', width, height };
}

function bmp(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  if (bytes.length < 26 || !ascii(bytes, 0, 'BM')) return undefined;
  if (view.getUint32(14, true) === 12) return { format: 'bmp', width: view.getUint16(18, true), height: view.getUint16(20, true) };
  return { format: 'bmp', width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
}

function tiff(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  const little = ascii(bytes, 0, 'II*\u0000');
  if (bytes.length < 8 || !(little || ascii(bytes, 0, 'MM\u0000*'))) return undefined;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > bytes.length) return undefined;
  const entries = view.getUint16(ifd, little);
  let width: number | undefined;
  let height: number | undefined;
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > bytes.length) break;
    const tag = view.getUint16(at, little);
    const type = view.getUint16(at + 2, little);
    const value = type === 3 ? view.getUint16(at + 8, little) : view.getUint32(at + 8, little);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width === undefined || height === undefined ? undefined : { format: 'tiff', width, height };
}

function webp(bytes: Uint8Array, view: DataView): ImageHeader | undefined {
  if (bytes.length < 30 || !ascii(bytes, 0, 'RIFF') || !ascii(bytes, 8, 'WEBP')) return undefined;
  const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  if (ascii(bytes, 12, 'VP8X')) return { format: 'webp', width: 1 + u24(24), height: 1 + u24(27) };
  if (ascii(bytes, 12, 'VP8L')) {
    const bits = view.getUint32(21, true);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(bytes, 12, 'VP8 '))
    return { format: 'webp', width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return undefined;
}

/** The format and declared size of an image, or undefined when the bytes are none of the formats read here. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const read of [png, jpeg, gif, bmp, tiff, webp]) {
    try {
      const header = read(bytes, view);
      if (header) return header;
    } catch {
      return undefined; // a truncated header reads past the end: not an image we can size
    }
  }
  return undefined;
}
