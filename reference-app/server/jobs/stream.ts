import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isFinalStatus } from './envelope';
import { sleep } from './events';
import type { JobLogSource } from './jobLogs';
import type { JobService } from './service';

// GET /v1/jobs/{id}/stream (docs/jobs.md: streaming): the envelope on every change as
// `event: job`, `id: <version>`, ending after the final status; `Last-Event-ID` resumes. A
// container job's log lines come as `event: log` (`{ at, stream, text }`), the stored ones first,
// each before the job event that follows it; lines the container wrote just after its answer
// come after the final envelope, within JOB_LATE_LOGS_MS, then the stream ends.

/** Streams send a comment this often so proxies and clients know the connection lives. */
export const HEARTBEAT_MS = 15_000;
/** How long a container job's stream stays open after its final envelope, for late log lines. */
export const JOB_LATE_LOGS_MS = 700;
/** Streams re-read the job this often when no notification arrives. */
const STREAM_POLL_MS = 2_000;

/**
 * Follows one job of the caller's. The change listener is registered once, BEFORE the first
 * read, and remembers a change that arrives while the stream reads or writes: a notification
 * is never lost between two waits (it would cost a poll interval).
 */
export function followJob(
  c: Context,
  jobs: JobService,
  userId: string,
  jobId: string,
  lastEventId: number,
  /** Called once the stream has ended (e.g. to give back an open-stream slot). */
  onClosed?: () => void,
  logs?: JobLogSource,
): Response {
  let sent = lastEventId;
  c.header('Cache-Control', 'no-cache');
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const gone = new AbortController();
    stream.onAbort(() => gone.abort());
    let newest = 0;
    let wake: (() => void) | undefined;
    const off = jobs.events.onChanged(jobId, (version) => {
      newest = Math.max(newest, version);
      if (version > sent) wake?.();
    });
    let logCursor = '0';
    let logged: boolean; // set before each read of the lines; a notification during the read sets it again
    const offLogged = jobs.events.onLogged(jobId, () => {
      logged = true;
      wake?.();
    });
    try {
      let lastWrite = Date.now();
      while (!gone.signal.aborted) {
        const row = await jobs.get(userId, jobId);
        logged = false;
        // Only containers write log lines (jobLogs.ts): other jobs' streams skip the read.
        if (logs && row.runtime === 'container') {
          const page = await logs(jobId, logCursor);
          for (const line of page.lines) await stream.writeSSE({ event: 'log', data: JSON.stringify(line) });
          if (page.lines.length > 0) lastWrite = Date.now();
          logCursor = page.cursor;
        }
        if (row.version > sent) {
          await stream.writeSSE({ event: 'job', id: String(row.version), data: JSON.stringify(await jobs.envelope(row)) });
          sent = row.version;
          lastWrite = Date.now();
        }
        if (isFinalStatus(row.status)) {
          // A container's last lines can follow its answer by a moment (containerRuntime.ts):
          // they come after the final envelope, then the stream ends.
          if (logs && row.runtime === 'container') {
            await sleep(JOB_LATE_LOGS_MS, gone.signal).promise;
            const late = await logs(jobId, logCursor);
            for (const line of late.lines) await stream.writeSSE({ event: 'log', data: JSON.stringify(line) });
          }
          break;
        }
        if (newest > sent || logged) continue; // changed or logged while we read or wrote: read again at once
        const pause = sleep(Math.min(STREAM_POLL_MS, HEARTBEAT_MS - (Date.now() - lastWrite)), gone.signal);
        wake = pause.wake;
        await pause.promise;
        wake = undefined;
        if (Date.now() - lastWrite >= HEARTBEAT_MS) {
          await stream.write(': heartbeat\n\n');
          lastWrite = Date.now();
        }
      }
    } finally {
      off();
      offLogged();
      onClosed?.();
    }
  }) as unknown as Response;
}
