// A bounded ring of log lines (docs/publishing.md, "Logs"): a deployment keeps its containers'
// last LOG_RING_LINES lines of stdout and stderr; older lines are dropped, so a chatty container
// cannot grow the runner's memory. Readers take a snapshot or the lines after a sequence number
// (what a job's log stream needs: the lines written while it ran).

export const LOG_RING_LINES = 1000;
/** A longer line is cut here (and marked), so one line cannot fill the ring's memory either. */
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
    const clipped = text.length > LOG_LINE_MAX_CHARS ? `${text.slice(0, LOG_LINE_MAX_CHARS)} …[cut]` : text;
    const line: LogLine = { seq: this.next++, at: new Date().toISOString(), stream, instance, text: clipped };
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
 * big-endian length); Podman's compatible API does the same.
 */
export class DockerLogDemuxer {
  private pending: Buffer = Buffer.alloc(0);
  private partial = { stdout: '', stderr: '' };

  constructor(private readonly onLine: (stream: 'stdout' | 'stderr', text: string) => void) {}

  write(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) break;
      const stream = this.pending[0] === 2 ? 'stderr' : 'stdout';
      this.text(stream, this.pending.subarray(8, 8 + size).toString('utf8'));
      this.pending = this.pending.subarray(8 + size);
    }
  }

  /** Emits what is left of an unterminated last line. */
  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) this.onLine(stream, this.partial[stream]);
      this.partial[stream] = '';
    }
  }

  private text(stream: 'stdout' | 'stderr', text: string): void {
    const parts = (this.partial[stream] + text).split('\n');
    this.partial[stream] = parts.pop() ?? '';
    for (const part of parts) this.onLine(stream, part.replace(/\r$/, ''));
  }
}
