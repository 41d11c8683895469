import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { randomToken } from '../crypto/tokens';

// Files users upload (support attachments, job inputs and outputs) live on disk under
// DATA_DIR/media, not in the database: large rows stall other queries and bloat backups. Keys
// are random (they double as capability URLs at /media/files/<key>) and end with an extension
// that records the content type, so no metadata store is needed.

export interface StoredMedia {
  key: string;
  /** Absolute URL that serves the file. */
  url: string;
  size: number;
}

export interface MediaFile {
  contentType: string;
  size: number;
  body: ReadableStream<Uint8Array>;
}

export interface MediaStore {
  put(bytes: Uint8Array, contentType: string): Promise<StoredMedia>;
  get(key: string): Promise<MediaFile | undefined>;
  delete(key: string): Promise<void>;
}

/** Content types the store keeps, by the extension their keys end with. */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  zip: 'application/zip',
  // 3D results (docs/jobs.md): served with their own types so browsers and viewers know them.
  glb: 'model/gltf-binary',
  obj: 'model/obj',
  bin: 'application/octet-stream',
};
const EXTENSIONS = new Map(Object.entries(MEDIA_TYPES).map(([ext, type]) => [type, ext]));

const KEY = /^[A-Za-z0-9_-]{22,64}\.([a-z0-9]{2,4})$/;

/** The content type of a well-formed key, undefined for anything else (no path tricks). */
export function contentTypeOfKey(key: string): string | undefined {
  const match = KEY.exec(key);
  return match ? MEDIA_TYPES[match[1]!] : undefined;
}

export function createFileMediaStore(dir: string, publicUrl: string): MediaStore {
  // Two-character shards keep directories small.
  const fileOf = (key: string) => path.join(dir, key.slice(0, 2), key);

  return {
    async put(bytes, contentType) {
      const ext = EXTENSIONS.get(contentType.split(';')[0]!.trim().toLowerCase()) ?? 'bin';
      const key = `${randomToken(18)}.${ext}`;
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed: a reader never sees half a file.
      const temporary = `${file}.${randomToken(6)}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
      return { key, url: `${publicUrl}/media/files/${key}`, size: bytes.byteLength };
    },
    async get(key) {
      const contentType = contentTypeOfKey(key);
      if (!contentType) return undefined;
      const file = fileOf(key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { contentType, size: info.size, body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array> };
    },
    async delete(key) {
      if (contentTypeOfKey(key)) await rm(fileOf(key), { force: true });
    },
  };
}
