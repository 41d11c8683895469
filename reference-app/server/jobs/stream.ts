import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isFinalStatus } from './envelope';
import { sleep } from './events';
import type { JobLogSource } from '../hosting/jobLogs';
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
/**
 * A stream follows its job's notifications (events.ts): a change wakes it at once. It re-reads
 * the job without one only this rarely (spread ±25 % so streams opened together do not read
 * together), in case a notification was lost; a LISTEN connection that comes back wakes every
 * stream instead. Before, each stream re-read every 2 s: 500 streams on PGlite were 250 reads a
 * second, and the loop stalled for seconds (docs/jobs.md, "Streaming").
 */
export const STREAM_FALLBACK_POLL_MS = 30_000;
const fallbackPollMs = () => STREAM_FALLBACK_POLL_MS * (0.75 + Math.random() * 0.5);

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
    let missed: boolean; // set before each read; a resync (LISTEN was away, notifications lost) sets it again
    const offResync = jobs.events.onResync(() => {
      missed = true;
      wake?.();
    });
    try {
      let lastWrite = Date.now();
      while (!gone.signal.aborted) {
        missed = false;
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
          // A container's last lines can follow its answer by a moment (hosting/containerRuntime.ts):
          // they come after the final envelope, then the stream ends.
          if (logs && row.runtime === 'container') {
            await sleep(JOB_LATE_LOGS_MS, gone.signal).promise;
            const late = await logs(jobId, logCursor);
            for (const line of late.lines) await stream.writeSSE({ event: 'log', data: JSON.stringify(line) });
          }
          break;
        }
        // Waits for a notification (changed, logged or missed while we read or wrote: none),
        // sending heartbeats meanwhile, until the fallback read is due.
        const pollAt = Date.now() + fallbackPollMs();
        while (!gone.signal.aborted && newest <= sent && !logged && !missed && Date.now() < pollAt) {
          const pause = sleep(Math.min(pollAt - Date.now(), HEARTBEAT_MS - (Date.now() - lastWrite)), gone.signal);
          wake = pause.wake;
          await pause.promise;
          wake = undefined;
          if (Date.now() - lastWrite >= HEARTBEAT_MS) {
            await stream.write(': heartbeat\n\n');
            lastWrite = Date.now();
          }
        }
      }
    } finally {
      off();
      offLogged();
      offResync();
      onClosed?.();
    }
  }) as unknown as Response;
}
