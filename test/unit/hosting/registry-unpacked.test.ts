// What a layer unpacks to, counted as its bytes stream through the platform registry's proxy
// (registry/unpacked.ts; docs/publishing.md, "The platform's registry", "Image size, counted at
// push"): a gzip bomb is stopped as soon as it passes the cap, whatever the chunking; a layer
// that is not compressed counts its own bytes; zstd, xz, bzip2 and broken gzip are refused in words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { UnpackedCounter, unpackedSizeOfFile } from '../../../reference-app/server/registry/unpacked';

const MiB = 1024 * 1024;

/** Streams `bytes` through a counter in `chunk`-sized pieces, as the proxy does. */
async function count(bytes: Buffer, limit: number, chunk = 64 * 1024) {
  const counter = new UnpackedCounter(limit, (n) => `too large: ${n}`);
  let stoppedAt: number | null = null;
  counter.onProblem = () => (stoppedAt ??= sent);
  let sent = 0;
  for (let at = 0; at < bytes.length && !counter.problem; at += chunk) {
    const piece = bytes.subarray(at, at + chunk);
    sent += piece.length;
    if (!counter.write(piece)) await counter.drained();
  }
  await counter.end();
  counter.dispose();
  return { unpacked: counter.unpacked, problem: counter.problem, stoppedAt };
}

describe('UnpackedCounter', () => {
  it('counts a gzip layer exactly, however it is cut into chunks', async () => {
    const raw = Buffer.alloc(5 * MiB + 123, 7);
    const layer = gzipSync(raw);
    for (const chunk of [1, 3, 1000, 64 * 1024, layer.length]) {
      const counted = await count(layer, 10 * MiB, chunk);
      expect(counted).toMatchObject({ unpacked: raw.length, problem: null });
    }
  });

  it('stops a gzip bomb once it passes the cap, without unpacking the rest', async () => {
    const bomb = gzipSync(Buffer.alloc(128 * MiB));
    expect(bomb.length).toBeLessThan(MiB);
    const counted = await count(bomb, 16 * MiB);
    expect(counted.problem).toMatch(/^too large: \d+$/);
    // Stopped within a few of zlib's output chunks past the cap, far from the 128 MB it holds.
    expect(counted.unpacked).toBeGreaterThan(16 * MiB);
    expect(counted.unpacked).toBeLessThan(32 * MiB);
  });

  it('counts an uncompressed layer as its own bytes and refuses it past the cap', async () => {
    expect(await count(Buffer.alloc(3 * MiB, 1), 4 * MiB)).toMatchObject({ unpacked: 3 * MiB, problem: null });
    expect((await count(Buffer.alloc(5 * MiB, 1), 4 * MiB)).problem).toMatch(/^too large/);
    expect(await count(Buffer.from('ab'), 4 * MiB)).toMatchObject({ unpacked: 2, problem: null });
  });

  it('refuses zstd, xz and bzip2 layers and gzip streams that do not end whole', async () => {
    const zstd = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(100)]);
    expect((await count(zstd, MiB)).problem).toMatch(/zstd-compressed layers cannot be counted.*gzip/);
    // The engine unpacks xz and bzip2 too; Node cannot count them, so they are refused, not taken as raw bytes.
    const xz = Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(100)]);
    expect((await count(xz, MiB, 1)).problem).toMatch(/^xz-compressed layers cannot be counted/);
    expect((await count(Buffer.from('BZh91AY&SY'), MiB)).problem).toMatch(/^bzip2-compressed layers cannot be counted/);
    const truncated = gzipSync(Buffer.alloc(MiB, 3)).subarray(0, 500);
    expect((await count(truncated, 4 * MiB)).problem).toMatch(/not a valid gzip stream/);
  });

  it('counts a stored blob from its file (a layer pushed before a restart)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'limelight-unpacked-'));
    try {
      const file = path.join(dir, 'data');
      writeFileSync(file, gzipSync(Buffer.alloc(2 * MiB, 9)));
      expect(await unpackedSizeOfFile(file, 4 * MiB)).toEqual({ unpacked: 2 * MiB, problem: null });
      expect((await unpackedSizeOfFile(file, MiB)).problem).toBe('too large');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
