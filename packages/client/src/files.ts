import type { FileRef } from './types.ts';

// File inputs (uploaded through POST /v1/files before a run) and file outputs (FileRefs in a
// result, given back as OutputFile objects).

/** A Node file path, for `input: { image: filePath('photo.png') }` (Node only). */
export interface FilePath {
  readonly kind: 'path';
  readonly path: string;
}
export const filePath = (path: string): FilePath => ({ kind: 'path', path });

/** What a file input accepts besides a URL string: Blob/File, bytes (Buffer too), a stream, a path. */
export type FileInput = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | FilePath | URL;

export function isFileInput(value: unknown): value is FileInput {
  if (typeof value !== 'object' || value === null) return false;
  return (
    (typeof Blob !== 'undefined' && value instanceof Blob) ||
    value instanceof ArrayBuffer ||
    ArrayBuffer.isView(value) ||
    (typeof ReadableStream !== 'undefined' && value instanceof ReadableStream) ||
    (value instanceof URL && value.protocol === 'file:') ||
    (value as Partial<FilePath>).kind === 'path' ||
    Symbol.asyncIterator in value
  );
}

const EXTENSIONS: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
};

/** The type of bytes without one, from their first bytes (the server accepts listed types only). */
export function sniffType(bytes: Uint8Array): string {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF8')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (ascii(0, 'RIFF') && ascii(8, 'WAVE')) return 'audio/wav';
  if (ascii(0, '%PDF')) return 'application/pdf';
  if (ascii(0, 'OggS')) return 'audio/ogg';
  if (ascii(0, 'ID3')) return 'audio/mpeg';
  return 'application/octet-stream';
}

async function collect(chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  const iterable =
    Symbol.asyncIterator in chunks
      ? (chunks as AsyncIterable<Uint8Array>)
      : (async function* () {
          const reader = (chunks as ReadableStream<Uint8Array>).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            yield value;
          }
        })();
  for await (const part of iterable) parts.push(part);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Node's fs, loaded only when a path is given (browsers and edge runtimes never load it). */
async function readPath(path: string): Promise<Uint8Array<ArrayBuffer>> {
  const fsModule = 'node:fs/promises';
  const fs = (await import(/* @vite-ignore */ fsModule)) as { readFile(path: string): Promise<Uint8Array> };
  const bytes = await fs.readFile(path);
  return new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** A file input as a typed Blob and a file name, ready for multipart upload (and its retries). */
export async function toBlob(
  file: FileInput,
  options: { contentType?: string; filename?: string } = {},
): Promise<{ blob: Blob; filename: string }> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  let filename = options.filename;
  let type = options.contentType;
  if (typeof Blob !== 'undefined' && file instanceof Blob) {
    filename ??= (file as Partial<File>).name || undefined;
    type ??= file.type || undefined;
    if (type) return { blob: file.type === type ? file : new Blob([file], { type }), filename: filename ?? 'upload' };
    bytes = new Uint8Array(await file.arrayBuffer());
  } else if (file instanceof URL || (file as Partial<FilePath>).kind === 'path') {
    const path = file instanceof URL ? decodeURIComponent(file.pathname) : (file as FilePath).path;
    bytes = await readPath(path);
    filename ??= path.split(/[\\/]/).pop();
  } else if (file instanceof ArrayBuffer) {
    bytes = new Uint8Array(file.slice(0));
  } else if (ArrayBuffer.isView(file)) {
    bytes = new Uint8Array(file.byteLength);
    bytes.set(new Uint8Array(file.buffer, file.byteOffset, file.byteLength));
  } else {
    bytes = await collect(file as AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>);
  }
  const extension = filename?.split('.').pop()?.toLowerCase();
  type ??= (extension && EXTENSIONS[extension]) || sniffType(bytes);
  return { blob: new Blob([bytes], { type }), filename: filename ?? 'upload' };
}

/** A file in a job's output: where it is, and its bytes on demand. */
export class OutputFile implements Pick<FileRef, 'content_type' | 'size'> {
  readonly content_type: string;
  readonly size: number;
  readonly #url: string;
  readonly #fetch: typeof fetch;
  constructor(ref: FileRef, fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)) {
    this.#url = ref.url;
    this.content_type = ref.content_type;
    this.size = ref.size;
    this.#fetch = fetcher;
  }
  /** The file's URL: the URL is the permission, so an <img> can load it without a header. */
  url(): string {
    return this.#url;
  }
  async #get(signal?: AbortSignal): Promise<Response> {
    const response = await this.#fetch(this.#url, { signal });
    if (!response.ok) throw new Error(`GET ${this.#url}: ${response.status} (outputs expire 7 days after the job ends)`);
    return response;
  }
  async blob(signal?: AbortSignal): Promise<Blob> {
    return (await this.#get(signal)).blob();
  }
  async stream(signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    return (await this.#get(signal)).body!;
  }
  /** JSON.stringify gives the FileRef back. */
  toJSON(): FileRef {
    return { url: this.#url, content_type: this.content_type, size: this.size };
  }
}

export function isFileRef(value: unknown): value is FileRef {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.url === 'string' && typeof v.content_type === 'string' && typeof v.size === 'number';
}

/** A result with every FileRef replaced by an OutputFile. */
export function withOutputFiles(value: unknown, fetcher?: typeof fetch, depth = 0): unknown {
  if (isFileRef(value)) return new OutputFile(value, fetcher);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withOutputFiles(v, fetcher, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withOutputFiles(v, fetcher, depth + 1)]));
}
