import { createReadStream } from 'node:fs';
import { createGunzip, type Gunzip, type ZlibOptions } from 'node:zlib';

// How large a layer is once the engine unpacks it, counted while its bytes stream through the
// platform's registry proxy (registry/proxy.ts; docs/publishing.md, "The platform's registry"). A
// few MB of gzip can unpack to gigabytes, and the engine writes every one of them to the host's
// disk before it can say the image is too large, so the registry refuses such a layer at push,
// as soon as what it unpacks to passes the cap. Nothing unpacked is kept: the output is counted
// and dropped.

const GZIP = [0x1f, 0x8b];
/**
 * zlib is handed compressed bytes a megabyte at a time, and gives them back unpacked in megabyte
 * chunks: each write and each output chunk is a trip to libuv's thread pool and back, and with the
 * request's 64 KB chunks those trips, not the unpacking, took most of the time on a busy host.
 */
const BATCH = 1024 * 1024;
const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];
/** Compressions the engine also unpacks (containers/image) that Node cannot count: refused. */
const UNCOUNTABLE: [number[], string][] = [
  [ZSTD, 'zstd'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
  [[0x42, 0x5a, 0x68], 'bzip2'],
];
/** Bytes needed to tell the compression from the start of a layer. */
const MAGIC_BYTES = 6;

export class UnpackedCounter {
  /** Bytes the layer unpacks to so far (the bytes themselves for a layer that is not compressed). */
  unpacked = 0;
  /** Why the layer is refused, once it is. */
  problem: string | null = null;
  /** Called once when the layer is refused (the request writing it is then cut off). */
  onProblem: ((problem: string) => void) | null = null;
  private head = Buffer.alloc(0);
  private kind: 'unknown' | 'gzip' | 'raw' = 'unknown';
  private gunzip: Gunzip | null = null;
  private closed: Promise<void> = Promise.resolve();
  /** Chunks handed to zlib and not yet taken in. */
  private pending = 0;
  private idle: (() => void)[] = [];
  /** Compressed bytes gathered for zlib's next write (see BATCH). */
  private batch: Buffer[] = [];
  private batched = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly tooLarge: (unpacked: number) => string,
  ) {}

  /**
   * Counts the next bytes of the layer, unpacking them beside the request rather than in its way.
   * False when zlib is behind by more than its buffer: wait for `drained()` before writing more.
   */
  write(chunk: Buffer): boolean {
    if (this.problem) return true;
    if (this.kind === 'unknown') {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < MAGIC_BYTES) return true;
      chunk = this.head;
      this.head = Buffer.alloc(0);
      this.choose(chunk);
    }
    return this.feed(chunk);
  }

  /** Resolves when zlib has room again (or counting stopped). */
  drained(): Promise<void> {
    const gunzip = this.gunzip;
    if (!gunzip || !gunzip.writableNeedDrain || gunzip.destroyed) return Promise.resolve();
    return Promise.race([new Promise<void>((resolve) => gunzip.once('drain', resolve)), this.closed]);
  }

  /** Resolves when every byte written so far is counted (or counting stopped). */
  flushed(): Promise<void> {
    this.writeBatch();
    if (this.pending === 0 || !this.gunzip || this.gunzip.destroyed) return Promise.resolve();
    return Promise.race([new Promise<void>((resolve) => this.idle.push(resolve)), this.closed]);
  }

  /** The layer is complete: counts what is left and checks that a gzip stream ended whole. */
  async end(): Promise<void> {
    if (this.problem) return;
    if (this.kind === 'unknown') {
      if (this.head.length === 0) return;
      this.choose(this.head);
      this.feed(this.head);
      this.head = Buffer.alloc(0);
    }
    this.writeBatch();
    const gunzip = this.gunzip;
    if (!gunzip || this.problem) return;
    await Promise.race([new Promise<void>((resolve) => gunzip.end(() => resolve())), this.closed]);
    await this.closed;
  }

  /** Stops counting (the upload is gone). */
  dispose(): void {
    this.gunzip?.destroy();
  }

  private choose(start: Buffer): void {
    const starts = (magic: number[]) => magic.every((byte, i) => start[i] === byte);
    const uncountable = UNCOUNTABLE.find(([magic]) => start.length >= magic.length && starts(magic));
    if (uncountable) {
      // Said so that it reads right for a push to our registry and for a pull from another one.
      this.fail(
        `${uncountable[1]}-compressed layers cannot be counted before they are unpacked, so they are refused; push the image with gzip compression (the default)`,
      );
      return;
    }
    if (!starts(GZIP)) {
      this.kind = 'raw';
      return;
    }
    this.kind = 'gzip';
    // A few MB of compressed bytes may wait for zlib, so the request is not held up by each chunk.
    const gunzip = createGunzip({ chunkSize: BATCH, writableHighWaterMark: 4 * BATCH } as ZlibOptions);
    this.gunzip = gunzip;
    this.closed = new Promise((resolve) => gunzip.once('close', () => resolve()));
    gunzip.on('data', (out: Buffer) => {
      this.unpacked += out.length;
      // Stopped at once: a bomb's remaining output is never produced.
      if (this.unpacked > this.limitBytes) this.fail(this.tooLarge(this.unpacked));
    });
    gunzip.on('error', (error) => this.fail(`the layer is not a valid gzip stream (${error.message})`));
  }

  private fail(problem: string): void {
    if (this.problem) return;
    this.problem = problem;
    this.gunzip?.destroy();
    this.onProblem?.(problem);
  }

  private feed(chunk: Buffer): boolean {
    if (this.problem || chunk.length === 0) return true;
    if (this.kind === 'raw') {
      this.unpacked += chunk.length;
      if (this.unpacked > this.limitBytes) this.fail(this.tooLarge(this.unpacked));
      return true;
    }
    this.batch.push(chunk);
    this.batched += chunk.length;
    return this.batched >= BATCH ? this.writeBatch() : true;
  }

  private writeBatch(): boolean {
    const gunzip = this.gunzip;
    if (this.batched === 0 || !gunzip || gunzip.destroyed) return true;
    const bytes = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batched);
    this.batch = [];
    this.batched = 0;
    this.pending++;
    return gunzip.write(bytes, () => {
      if (--this.pending === 0) for (const resolve of this.idle.splice(0)) resolve();
    });
  }
}

/** What a stored blob unpacks to, counted up to just past `limitBytes` (a layer pushed before a restart). */
export async function unpackedSizeOfFile(file: string, limitBytes: number): Promise<{ unpacked: number; problem: string | null }> {
  const counter = new UnpackedCounter(limitBytes, () => 'too large');
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  try {
    for await (const chunk of stream) {
      if (!counter.write(chunk as Buffer)) await counter.drained();
      if (counter.problem) break;
    }
    await counter.end();
  } finally {
    stream.destroy();
    counter.dispose();
  }
  return { unpacked: counter.unpacked, problem: counter.problem };
}
