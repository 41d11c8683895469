import { createApiClient, type ClientOptions } from './http';
import { OFFLINE_ERROR, type ApiResult } from './result';
import { FINAL_JOB_STATUSES, type FileRef, type Job, type JobCreate, type JobEstimateData, type JobList, type JobLogLine } from './types';

// The job API (docs/jobs.md): create a run of a service endpoint, follow it, cancel it, list
// past runs, upload input files, and subscribe to its server-sent events. Calls never throw.

export const JOBS_PREFIX = '/v1/';
/** Longest `Prefer: wait` the server honours, seconds. */
export const MAX_PREFER_WAIT_S = 60;

export interface CreateJobOptions {
  /** Answer when the job ends or after this many seconds (≤ 60), whichever is first. */
  wait?: number;
  /** A retried create with the same key returns the same job and charges once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ListJobsQuery {
  service_id?: string;
  /** 1..100, default 20. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

export interface JobSubscription {
  /** Stops listening (no more callbacks). */
  close(): void;
  /** Settles with the final envelope, or the last one seen when closed or failed for good. */
  readonly done: Promise<Job | undefined>;
}

export interface SubscribeOptions {
  /** Called with the envelope on every status change and partial output. */
  onJob(job: Job): void;
  /** Each line a container job's instance writes while the job runs (docs/jobs.md, "Logs"). */
  onLog?(line: JobLogLine): void;
  /** A failure that ends the subscription (401, 404) or a reconnect attempt (transient). */
  onError?(error: { status: number; message: string; willRetry: boolean }): void;
  /** Resume after this event id (a previous subscription's last `id`). */
  lastEventId?: string;
  /** Delay before reconnecting after a dropped connection, ms; doubles up to 10 s. Default 500. */
  retryMs?: number;
  signal?: AbortSignal;
}

const isFinal = (job: Job) => FINAL_JOB_STATUSES.includes(job.status);
const MAX_RETRY_MS = 10_000;

/** Job calls; every call needs a session token or API key. */
export function createJobsClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: JOBS_PREFIX, defaultAuth: 'required' });

  function create(body: JobCreate, opts: CreateJobOptions = {}): Promise<ApiResult<Job>> {
    const headers: Record<string, string> = {};
    if (opts.wait !== undefined) headers.Prefer = `wait=${Math.max(0, Math.min(MAX_PREFER_WAIT_S, Math.round(opts.wait)))}`;
    if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
    return client.post<Job>('jobs', body, { headers, signal: opts.signal });
  }

  /** Uploads one file for use as a file input; answers its `{ url, content_type, size }`. */
  function uploadFile(file: Blob, filename = 'upload', signal?: AbortSignal): Promise<ApiResult<FileRef>> {
    const form = new FormData();
    form.append('file', file, (file as File).name || filename);
    return client.post<FileRef>('files', form, { signal });
  }

  /**
   * Follows a job's event stream. A dropped connection reconnects with `Last-Event-ID`, so no
   * state is missed (each event carries the whole envelope); it ends after the final status.
   */
  function subscribe(jobId: string, sub: SubscribeOptions): JobSubscription {
    const controller = new AbortController();
    const abort = () => controller.abort();
    sub.signal?.addEventListener('abort', abort, { once: true });
    let lastEventId = sub.lastEventId;
    let latest: Job | undefined;
    // The server replays a job's stored lines from the first on every connection: a reconnect
    // skips the ones already passed on.
    let logLines = 0;
    const path = `jobs/${encodeURIComponent(jobId)}/stream`;

    async function connectOnce(): Promise<'final' | 'dropped' | { status: number; message: string }> {
      const headers: Record<string, string> = lastEventId ? { 'Last-Event-ID': lastEventId } : {};
      const opened = await client.stream(path, { headers, signal: controller.signal });
      if (!opened.ok) return opened.status === 0 ? 'dropped' : { status: opened.status, message: opened.error };
      let replayed = 0;
      for await (const event of opened.data) {
        if (event.event === 'log') {
          replayed += 1;
          if (replayed > logLines) {
            logLines = replayed;
            sub.onLog?.(JSON.parse(event.data) as JobLogLine);
          }
          continue;
        }
        if (event.event !== 'job') continue;
        if (event.id) lastEventId = event.id;
        latest = JSON.parse(event.data) as Job;
        sub.onJob(latest);
        // Leaving the loop closes the connection; a log reader stays for a container's late
        // lines, which the server sends after the final envelope before it ends the stream.
        if (isFinal(latest) && !sub.onLog) return 'final';
      }
      return latest && isFinal(latest) ? 'final' : 'dropped';
    }

    const done = (async () => {
      let delay = sub.retryMs ?? 500;
      while (!controller.signal.aborted) {
        let outcome: Awaited<ReturnType<typeof connectOnce>>;
        try {
          outcome = await connectOnce();
        } catch {
          outcome = 'dropped';
        }
        if (outcome === 'final' || controller.signal.aborted) break;
        if (outcome !== 'dropped') {
          // 5xx and 429 are worth another try; 401/403/404 are not.
          const willRetry = outcome.status >= 500 || outcome.status === 429;
          sub.onError?.({ ...outcome, willRetry });
          if (!willRetry) break;
        } else {
          sub.onError?.({ status: 0, message: OFFLINE_ERROR, willRetry: true });
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      }
      sub.signal?.removeEventListener('abort', abort);
      return latest;
    })();

    return { close: abort, done };
  }

  return {
    client,
    create,
    get: (jobId: string) => client.get<Job>(`jobs/${encodeURIComponent(jobId)}`),
    cancel: (jobId: string) => client.post<Job>(`jobs/${encodeURIComponent(jobId)}/cancel`),
    list: (query: ListJobsQuery = {}) => client.get<JobList>('jobs', { query: { ...query } }),
    /** Price of the service's GPU and recent run times of the endpoint (feed `estimateRun`). */
    estimate: (serviceId: string, endpoint?: string) =>
      client.get<JobEstimateData>('jobs/estimate', { query: { service_id: serviceId, endpoint } }),
    uploadFile,
    subscribe,
  };
}

export type JobsClient = ReturnType<typeof createJobsClient>;
