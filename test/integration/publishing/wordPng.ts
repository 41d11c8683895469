import { deflateSync } from 'node:zlib';

// A word in block capitals on a white page, as a greyscale PNG, for OCR tests: no image library
// needed. Tesseract reads these 5×7 glyphs scaled 6× as the word (tested with HELLO).

const GLYPHS: Record<string, string[]> = {
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
};

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `word` (letters H, E, L, O) drawn black at the top left of a white `width`×`height` page. */
export function wordPng(word: string, page: { width: number; height: number }, scale = 6): Buffer {
  const columns: boolean[][] = [];
  for (const letter of word) {
    const glyph = GLYPHS[letter];
    if (!glyph) throw new Error(`wordPng draws ${Object.keys(GLYPHS).join('')} only, not ${letter}`);
    for (let x = 0; x < 5; x++) columns.push(glyph.map((row) => row[x] === '1'));
    columns.push(Array<boolean>(7).fill(false));
  }
  const width = Math.max(page.width, (columns.length + 8) * scale);
  const height = Math.max(page.height, 15 * scale);
  const rows = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0; // filter: none
    const cy = Math.floor(y / scale) - 4;
    if (cy < 0 || cy >= 7) continue;
    for (let x = 0; x < columns.length * scale; x++) {
      if (columns[Math.floor(x / scale)]![cy]) rows[y * (width + 1) + 1 + x + 4 * scale] = 0;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
