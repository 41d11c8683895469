// One log line without a newline must not freeze the event loop (issue 35, finding 3): the
// demuxer cuts a partial line at the log ring's bound as its bytes arrive, so its work is linear
// in the bytes a container writes. The 16 MB line arrives as the engine's stream delivers it,
// one chunk per event-loop turn, while perf_hooks measures how long the loop was held.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DockerLogDemuxer, LOG_LINE_MAX_CHARS, LOG_RING_LINES, LogRing } from '../../../reference-app/server/hosting/logRing';
import { CUT_MARK } from '../../../reference-app/server/runtimes/runtime';

const MB = 1024 * 1024;

const header = (stream: 1 | 2, size: number) => {
  const bytes = Buffer.alloc(8);
  bytes[0] = stream;
  bytes.writeUInt32BE(size, 4);
  return bytes;
};

/** Feeds `chunks` one per event-loop turn; returns the longest the loop was held, in ms. */
async function feed(demux: DockerLogDemuxer, chunks: Iterable<Buffer>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  for (const chunk of chunks) {
    demux.write(chunk);
    await nextTurn();
  }
  delay.disable();
  return delay.max / 1e6;
}

/** A loop held longer than this is a stall a server's other requests would notice. */
const STALL_MS = 250;

describe('log demuxer against a line without a newline', () => {
  it('16 MB written in 16 KB frames: one cut line, the loop never held', async () => {
    const ring = new LogRing();
    const demux = new DockerLogDemuxer((stream, text) => ring.push(stream, 'i', text));
    const body = Buffer.alloc(16 * 1024, 'x');
    function* frames() {
      for (let i = 0; i < (16 * MB) / body.length; i += 1) yield Buffer.concat([header(1, body.length), body]);
      yield Buffer.concat([header(1, 6), Buffer.from('\nnext\n')]);
    }
    const heldMs = await feed(demux, frames());
    demux.end();
    expect(heldMs).toBeLessThan(STALL_MS);
    const texts = ring.tail(10).map((l) => l.text);
    // The runaway line is kept once, cut and marked; the rest of it is dropped, not spread over the ring.
    expect(texts).toEqual([`${'x'.repeat(LOG_LINE_MAX_CHARS - CUT_MARK.length)}${CUT_MARK}`, 'next']);
  });

  it('one 16 MB frame arriving in 64 KB socket chunks: the frame is never copied whole per chunk', async () => {
    const lines: string[] = [];
    const demux = new DockerLogDemuxer((_stream, text) => lines.push(text));
    const size = 16 * MB;
    const piece = Buffer.alloc(64 * 1024, 'y');
    function* chunks() {
      yield header(2, size + 3);
      for (let sent = 0; sent < size; sent += piece.length) yield piece;
      yield Buffer.from('\nok');
    }
    const heldMs = await feed(demux, chunks());
    demux.end();
    expect(heldMs).toBeLessThan(STALL_MS);
    expect(lines.map((l) => l.length)).toEqual([LOG_LINE_MAX_CHARS, 2]);
    expect(lines[0]).toMatch(/y …\[cut\]$/);
  });

  it('keeps a character split between two frames whole', () => {
    const lines: string[] = [];
    const demux = new DockerLogDemuxer((_stream, text) => lines.push(text));
    const text = Buffer.from('grüße\n');
    const cut = text.indexOf(0xbc); // the second byte of ü
    demux.write(Buffer.concat([header(1, cut), text.subarray(0, cut)]));
    demux.write(Buffer.concat([header(1, text.length - cut), text.subarray(cut)]));
    expect(lines).toEqual(['grüße']);
  });
});

/** Half a surrogate pair: what a cut in the middle of a character leaves (jsonb refuses it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// Issue 47, finding 4: a cut line is bounded and marked the way every text from a container is
// (runtime.ts, boundText): on a character boundary, and holding nothing of the bytes it came in.
describe('a cut log line', () => {
  it.each([
    ['', 'a cut between two characters'],
    ['a', 'a cut inside a character'],
  ])('emoji after %j: %s keeps every character whole', (prefix) => {
    const ring = new LogRing();
    const demux = new DockerLogDemuxer((stream, text) => ring.push(stream, 'i', text));
    const line = Buffer.from(`${prefix}${'😀'.repeat(3000)}\nnext\n`);
    demux.write(Buffer.concat([header(1, line.length), line]));
    const [cut, next] = ring.tail(2).map((l) => l.text);
    expect(cut).not.toMatch(LONE_SURROGATE);
    expect(cut!.length).toBeLessThanOrEqual(LOG_LINE_MAX_CHARS);
    expect(cut).toMatch(/😀 …\[cut\]$/);
    expect(next).toBe('next');
  });

  it('a full ring holds its lines, not the chunks they were read from', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const ring = new LogRing();
    const demux = new DockerLogDemuxer((stream, text) => ring.push(stream, 'i', text));
    gc();
    const before = process.memoryUsage().heapUsed;
    // Each 512 KB frame holds one short line, then a long line the ring keeps cut.
    for (let i = 0; i < 400; i += 1) {
      const body = Buffer.from(`line ${i} ${'l'.repeat(100)}\n${'z'.repeat(512 * 1024)}\n`);
      demux.write(Buffer.concat([header(1, body.length), body]));
    }
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / MB;
    expect(ring.tail(LOG_RING_LINES)).toHaveLength(Math.min(LOG_RING_LINES, 800));
    // 800 lines of at most 4000 characters are 3.2 MB; slices of their frames held 200 MB.
    expect(grownMb).toBeLessThan(20);
  });
});
