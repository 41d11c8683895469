import { parseDataUri } from '@limelight/widgets/run';
import type { Db } from '../db/types';
import { EXAMPLE_MEDIA_PATH, readExampleMedia } from '../media/exampleMedia';
import { MEDIA_TYPES, type MediaStore } from '../media/store';
import type { InputFile, MediaRef } from '../runtimes/runtime';
import { deleteExpiredFiles, insertStoredFile, selectStoredFile } from './queries';

// Files of jobs: uploads for file inputs (POST /v1/files) and media a job produced. The bytes
// live in the media store (served at /media/files/<key>, where the random key is the
// permission); the stored_files row records owner, job and retention, so expired files are
// removed and a job only reads files that still exist.

export const MEDIA_FILES_PATH = '/media/files/';

/** Types accepted as uploads: those the media store keeps under their own type, minus SVG and ZIP. */
export const UPLOAD_TYPES = new Set(
  Object.values(MEDIA_TYPES).filter((t) => !['image/svg+xml', 'application/zip', 'application/octet-stream'].includes(t)),
);

export class FileInputError extends Error {
  override name = 'FileInputError';
}

export interface FileStore {
  put(bytes: Uint8Array, contentType: string, owner: { userId: string; jobId?: string; expiresAt: Date }): Promise<MediaRef>;
  get(key: string): Promise<{ bytes: Uint8Array; contentType: string; size: number } | undefined>;
  /** Whether a file input given as a URL names a file of this site that still exists: a stored file or a seeded example's media. */
  exists(url: string): Promise<boolean>;
  /** Resolves a file input: a stored file's URL (on this site), a seeded example's media or a data: URI. */
  read(urlOrDataUri: string): Promise<InputFile>;
  /** Removes files past their retention (rows and bytes). */
  expire(): Promise<void>;
}

/** `examplesDir`: the seeded examples' media (media/exampleMedia.ts), readable as inputs by every caller. */
export function createFileStore(db: Db, media: MediaStore, publicUrl: string, examplesDir?: string): FileStore {
  async function get(key: string) {
    const row = await selectStoredFile(db, key);
    if (!row || row.expires_at.getTime() < Date.now()) return undefined;
    const file = await media.get(key);
    if (!file) return undefined;
    return { bytes: new Uint8Array(await new Response(file.body).arrayBuffer()), contentType: file.contentType, size: file.size };
  }

  /** The URL's path on this site: an absolute URL of the site loses its origin. */
  const pathOf = (value: string) => (value.startsWith(publicUrl) ? value.slice(publicUrl.length) : value);
  /** A seeded example's media, for a path under /media/examples/; undefined for any other path. */
  const example = (path: string) =>
    examplesDir && path.startsWith(EXAMPLE_MEDIA_PATH) ? readExampleMedia(examplesDir, path.slice(EXAMPLE_MEDIA_PATH.length)) : undefined;

  return {
    async put(bytes, contentType, owner) {
      const stored = await media.put(bytes, contentType);
      // The store serves what its key records: unknown types become application/octet-stream.
      const servedType = MEDIA_TYPES[stored.key.split('.').pop() ?? ''] ?? 'application/octet-stream';
      await insertStoredFile(db, {
        key: stored.key,
        userId: owner.userId,
        jobId: owner.jobId ?? null,
        contentType: servedType,
        size: stored.size,
        expiresAt: owner.expiresAt,
      });
      return { url: stored.url, content_type: servedType, size: stored.size };
    },
    get,
    async exists(value) {
      const path = pathOf(value);
      if (path.startsWith(MEDIA_FILES_PATH)) return (await get(path.slice(MEDIA_FILES_PATH.length))) !== undefined;
      return (await example(path)) !== undefined;
    },
    async read(value) {
      const dataUri = parseDataUri(value);
      if (dataUri) {
        const bytes = dataUri.base64 ? Buffer.from(dataUri.payload, 'base64') : Buffer.from(decodeURIComponent(dataUri.payload), 'utf8');
        return { bytes: new Uint8Array(bytes), contentType: dataUri.contentType };
      }
      // Only this site's stored files: fetching arbitrary URLs from the server would let a job
      // reach internal addresses.
      const path = pathOf(value);
      if (examplesDir && path.startsWith(EXAMPLE_MEDIA_PATH)) {
        const found = await example(path);
        if (!found) throw new FileInputError(`${value} is not an example file of this site`);
        return found;
      }
      if (!path.startsWith(MEDIA_FILES_PATH)) {
        throw new FileInputError(`${value} is not a file of this site: upload it with POST /v1/files and pass the returned url`);
      }
      const file = await get(path.slice(MEDIA_FILES_PATH.length));
      if (!file) throw new FileInputError(`${value} does not exist or has expired`);
      return { bytes: file.bytes, contentType: file.contentType };
    },
    async expire() {
      for (const key of await deleteExpiredFiles(db)) await media.delete(key);
    },
  };
}
