import { StringDecoder } from 'node:string_decoder';
import { boundText } from '../runtimes/runtime';

// A bounded ring of log lines (docs/publishing.md, "Logs"): a deployment keeps its containers'
// last LOG_RING_LINES lines of stdout and stderr; older lines are dropped, so a chatty container
// cannot grow the runner's memory. Readers take a snapshot or the lines after a sequence number
// (what a job's log stream needs: the lines written while it ran).

export const LOG_RING_LINES = 1000;
/**
 * A longer line is cut to this many characters, the mark included (runtime.ts, boundText), so one
 * line cannot fill the ring's memory either.
 */
export const LOG_LINE_MAX_CHARS = 4000;

export interface LogLine {
  /** Increases by one per line over the ring's life; survives drops, so readers can resume. */
  seq: number;
  at: string;
  /** `runner`: the platform's own lines about the deployment (stages, cold starts, failures). */
  stream: 'stdout' | 'stderr' | 'runner';
  instance: string;
  text: string;
}

export class LogRing {
  private lines: LogLine[] = [];
  private next = 1;
  private listeners = new Set<(line: LogLine) => void>();

  constructor(private readonly capacity = LOG_RING_LINES) {}

  push(stream: LogLine['stream'], instance: string, text: string): LogLine {
    // A copy, bounded: a line read from the engine is a slice of the chunk it came in, and kept
    // as a slice it holds that whole chunk (800 lines from 512 KB chunks held 200 MB; copied,
    // 3.3 MB: test/unit/hosting/log-demuxer.test.ts).
    const line: LogLine = { seq: this.next++, at: new Date().toISOString(), stream, instance, text: boundText(text, LOG_LINE_MAX_CHARS) };
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
    for (const listener of this.listeners) listener(line);
    return line;
  }

  /** The sequence number the next line will get: remember it, then read `since` it. */
  get cursor(): number {
    return this.next;
  }

  since(seq: number, instance?: string): LogLine[] {
    return this.lines.filter((l) => l.seq >= seq && (instance === undefined || l.instance === instance));
  }

  tail(count: number): LogLine[] {
    return this.lines.slice(-count);
  }

  subscribe(listener: (line: LogLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * Splits a Docker log stream's bytes into lines. Docker multiplexes stdout and stderr into
 * 8-byte-framed chunks for containers without a TTY (stream type, three zero bytes, a 32-bit
 * big-endian length); Podman's compatible API does the same. Frames are read as their bytes
 * arrive and a line is cut at the log ring's bound (LOG_LINE_MAX_CHARS, marked; the rest of it
 * dropped up to its newline), so the work is linear in the bytes and the memory bounded: a
 * container writing megabytes without a newline cannot hold the event loop or the runner's
 * memory. Every line it emits is within the bound, so the failure message's last lines
 * (engine.ts, lastLogLines) are too.
 */
export class DockerLogDemuxer {
  private header = Buffer.alloc(0);
  /** Bytes left in the current frame's body, and whose they are. */
  private remaining = 0;
  private stream: 'stdout' | 'stderr' = 'stdout';
  private readonly streams = { stdout: new LineCutter(), stderr: new LineCutter() };

  constructor(private readonly onLine: (stream: 'stdout' | 'stderr', text: string) => void) {}

  write(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.remaining === 0) {
        const take = Math.min(8 - this.header.length, chunk.length - offset);
        this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + take)]);
        offset += take;
        if (this.header.length < 8) return;
        this.stream = this.header[0] === 2 ? 'stderr' : 'stdout';
        this.remaining = this.header.readUInt32BE(4);
        this.header = Buffer.alloc(0);
        continue;
      }
      const take = Math.min(this.remaining, chunk.length - offset);
      const stream = this.stream;
      this.streams[stream].write(chunk.subarray(offset, offset + take), (text) => this.onLine(stream, text));
      offset += take;
      this.remaining -= take;
    }
  }

  /** Emits what is left of an unterminated last line. */
  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) this.streams[stream].end((text) => this.onLine(stream, text));
  }
}

/**
 * One stream's bytes into lines of at most LOG_LINE_MAX_CHARS characters, a longer one cut and
 * marked. At most LOG_LINE_MAX_CHARS + 1 characters of a line are held while it is read.
 */
class LineCutter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';
  /** A line was cut: its rest is dropped until its newline. */
  private dropping = false;

  write(bytes: Buffer, emit: (text: string) => void): void {
    const text = this.decoder.write(bytes);
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      if (this.dropping) this.dropping = false;
      else
        emit(
          boundText(
            (this.partial + text.slice(start, Math.min(newline, start + LOG_LINE_MAX_CHARS + 1 - this.partial.length))).replace(/\r$/, ''),
            LOG_LINE_MAX_CHARS,
          ),
        );
      this.partial = '';
      start = newline + 1;
    }
    if (this.dropping) return;
    this.partial += text.slice(start, start + LOG_LINE_MAX_CHARS + 1 - this.partial.length);
    if (this.partial.length > LOG_LINE_MAX_CHARS) {
      emit(boundText(this.partial, LOG_LINE_MAX_CHARS));
      this.partial = '';
      this.dropping = true;
    }
  }

  end(emit: (text: string) => void): void {
    const rest = this.partial + this.decoder.end();
    if (rest && !this.dropping) emit(boundText(rest, LOG_LINE_MAX_CHARS));
    this.partial = '';
    this.dropping = false;
  }
}
