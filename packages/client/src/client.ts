import { envVar } from './env.ts';
import { ApiError, ConnectionError, JobFailedError, JobWaitError, LimelightError } from './errors.ts';
import { isFileInput, toBlob, withOutputFiles, type FileInput } from './files.ts';
import { backoffMs, createHttp, sleep, type RetryOptions } from './http.ts';
import { readSse } from './sse.ts';
import {
  isFinalStatus,
  MAX_PREFER_WAIT_S,
  type EndpointOf,
  type FileRef,
  type InputOf,
  type Job,
  type JobEstimate,
  type JobEvent,
  type JobLogLine,
  type JobPage,
  type OutputOf,
  type WebhookEventType,
} from './types.ts';
import { verify } from './webhooks.ts';

// createClient: the job API (docs/jobs.md) for any fetch runtime. run() is submit + wait: the
// submission asks the server to hold the answer until the job ends (Prefer: wait), and a job
// still running after that is followed over its event stream, falling back to reading it.

export interface ClientOptions {
  /**
   * The platform's origin, e.g. https://limelight.example (no /v1); default `LIMELIGHT_BASE_URL`
   * in Node (the older `LIME_BASE_URL` still works, with a warning).
   */
  baseUrl?: string;
  /**
   * An API key (lime_…); default `LIMELIGHT_API_KEY` in Node (read from process.env where
   * there is one, never in browsers; the older `LIME_API_KEY` still works, with a warning). Keep it on servers: in browsers, use `token`/`getToken`
   * or send requests through your server's proxy (`@limelight/client/proxy`).
   */
  apiKey?: string;
  /** A signed-in user's access token. */
  token?: string;
  /** A token source called before each request (refreshing sessions). */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** Retries of failed requests (429/502/503/504, network errors). */
  retry?: RetryOptions;
  /** A fetch to use instead of globalThis.fetch. */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export interface SubmitOptions<S extends string = string, E extends string = EndpointOf<S>> {
  /** The endpoint's path (e.g. `/generate`); may be left out when the service has one endpoint. */
  endpoint?: E;
  input: InputOf<S, E>;
  /** Called with the job's envelope when it ends (Standard Webhooks signature). */
  webhook?: string;
  /** What the webhook is sent for (default `['completed']`): start, output, logs, completed. */
  webhookEventsFilter?: readonly WebhookEventType[];
  /**
   * Seconds the server may hold the answer until the job ends (Prefer: wait, at most 60).
   * `run` asks for 60 unless it was given onJob, onEvent or onLog: then 0, so they come while the job runs.
   */
  wait?: number;
  /** Sent on every retry so the server creates one job; default a fresh UUID per call. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface RunOptions<S extends string = string, E extends string = EndpointOf<S>> extends SubmitOptions<S, E> {
  /** Give up waiting after this many ms (the job goes on: the error carries its jobId). */
  timeout?: number;
  /** Every change of the job while waiting (progress, streamed text). */
  onEvent?: (event: JobEvent) => void;
  /** The job as soon as it exists, so its id can be stored before waiting. */
  onJob?: (job: Job) => void;
  /** Each line the job's container writes while waiting (see StreamOptions.onLog). */
  onLog?: (line: JobLogLine) => void;
  /**
   * Cancel the job on the server when `run` stops waiting for it before it ends: the signal
   * aborted or `timeout` passed (default false: the job goes on, as replicate's default). The
   * error still carries the jobId; a cancel that fails does not hide the abort (docs/sdk.md).
   */
  cancelOnAbort?: boolean;
}

export interface StreamOptions {
  /** Resume after this event id (the last one you saw). */
  lastEventId?: string;
  /**
   * Each line the job's container writes (the stream's `log` events), the stored ones first.
   * A resumed connection does not repeat the lines already given.
   */
  onLog?: (line: JobLogLine) => void;
  signal?: AbortSignal;
}

export interface ListOptions {
  serviceId?: string;
  /** Jobs per page, 1–100 (default 20). */
  limit?: number;
  /** Start at this page: the `next_cursor` of an earlier one (to page on later). */
  cursor?: string;
  signal?: AbortSignal;
}

export interface UploadOptions {
  contentType?: string;
  filename?: string;
  signal?: AbortSignal;
}

const path = (jobId: string) => `/v1/jobs/${encodeURIComponent(jobId)}`;

export function createClient(options: ClientOptions = {}) {
  // The environment is read only for what the options leave out, so an older name set there
  // but not used draws no warning.
  const baseUrl = options.baseUrl ?? envVar('LIMELIGHT_BASE_URL');
  // '' is a base URL: the page's own origin (the widgets' same-origin setup).
  if (baseUrl === undefined) throw new TypeError('createClient: give baseUrl (or set LIMELIGHT_BASE_URL on a server)');
  // The environment's key stands in only when no credential at all was given.
  const envKey = options.apiKey !== undefined || options.token || options.getToken ? undefined : envVar('LIMELIGHT_API_KEY');
  const http = createHttp({
    baseUrl,
    credential: async () => options.apiKey ?? options.token ?? (await options.getToken?.()) ?? envKey ?? undefined,
    fetch: options.fetch,
    retry: options.retry,
    headers: options.headers,
  });
  const retries = options.retry?.retries ?? 4;

  async function upload(file: FileInput, opts: UploadOptions = {}): Promise<FileRef> {
    const { blob, filename } = await toBlob(file, opts);
    const form = new FormData();
    form.append('file', blob, filename);
    const response = await http.send('/v1/files', { method: 'POST', body: form, signal: opts.signal });
    return (await response.json()) as FileRef;
  }

  /** Uploads every file among the input's values (and in arrays) and puts its URL in its place. */
  async function prepareInput(input: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      if (isFileInput(value)) out[name] = (await upload(value, { signal })).url;
      else if (Array.isArray(value) && value.some(isFileInput)) {
        out[name] = await Promise.all(value.map(async (v) => (isFileInput(v) ? (await upload(v, { signal })).url : v)));
      } else out[name] = value;
    }
    return out;
  }

  async function post(body: object, key: string, wait: number | undefined, signal?: AbortSignal) {
    const headers: Record<string, string> = { 'Idempotency-Key': key };
    if (wait) headers.Prefer = `wait=${Math.max(0, Math.min(MAX_PREFER_WAIT_S, Math.round(wait)))}`;
    const response = await http.send('/v1/jobs', { method: 'POST', json: body, headers, signal });
    return { job: (await response.json()) as Job, created: response.status === 201 };
  }

  /** Queues a job; with `wait`, the answer comes when it ends or after `wait` seconds. */
  async function submit<S extends string, E extends string = EndpointOf<S>>(serviceId: S, opts: SubmitOptions<S, E>): Promise<Job> {
    const input = await prepareInput(opts.input as Record<string, unknown>, opts.signal);
    const body = {
      service_id: serviceId,
      input,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.webhook ? { webhook: opts.webhook } : {}),
      ...(opts.webhookEventsFilter ? { webhook_events_filter: [...opts.webhookEventsFilter] } : {}),
    };
    const key = opts.idempotencyKey ?? crypto.randomUUID();
    try {
      return (await post(body, key, opts.wait, opts.signal)).job;
    } catch (error) {
      if (!opts.signal?.aborted) throw error;
      // Aborted before the answer came: the job may exist. Replaying the same key finds it
      // without creating another; if the replay is what created it, nothing had run: cancel
      // it (free while queued) and report a plain abort.
      const found = await post(body, key, undefined, AbortSignal.timeout(10_000)).catch(() => undefined);
      if (!found) throw error;
      if (found.created) {
        await cancel(found.job.job_id).catch(() => {});
        throw error;
      }
      throw new JobWaitError(
        `Aborted while job ${found.job.job_id} runs; fetch it later with client.get()`,
        found.job.job_id,
        'aborted',
        error,
      );
    }
  }

  const get = async (jobId: string, opts: { signal?: AbortSignal } = {}) => http.json<Job>(path(jobId), opts);

  /** Cancels a job; one that already ended is answered unchanged. */
  const cancel = async (jobId: string, opts: { signal?: AbortSignal } = {}) =>
    http.json<Job>(`${path(jobId)}/cancel`, { method: 'POST', signal: opts.signal });

  /** Pages of your jobs, newest first: `for await (const page of client.list())`. */
  async function* list(opts: ListOptions = {}): AsyncGenerator<JobPage> {
    let cursor: string | null = opts.cursor ?? null;
    do {
      const query = new URLSearchParams({ limit: String(opts.limit ?? 20) });
      if (opts.serviceId) query.set('service_id', opts.serviceId);
      if (cursor) query.set('cursor', cursor);
      const page: JobPage = await http.json<JobPage>(`/v1/jobs?${query}`, { signal: opts.signal });
      yield page;
      cursor = page.next_cursor;
    } while (cursor);
  }

  /**
   * The job's events until its final status. A dropped connection is resumed with
   * Last-Event-ID: every event carries the whole envelope, so nothing is lost or repeated.
   */
  async function* stream(jobId: string, opts: StreamOptions = {}): AsyncGenerator<JobEvent> {
    let lastEventId = opts.lastEventId ?? null;
    let failures = 0;
    // Log lines carry no event id: every connection starts with all the stored ones, in order,
    // so a resumed connection skips as many as were already given.
    let logsGiven = 0;
    for (;;) {
      const headers: Record<string, string> = { Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const response = await http.send(`${path(jobId)}/stream`, { headers, signal: opts.signal });
      let logsHere = 0;
      // A container writes some lines just after its answer: the server sends them after the
      // final envelope and then ends the stream, so a log reader stays until that end.
      let finished = false;
      try {
        for await (const message of readSse(response.body!)) {
          if (message.event === 'log') {
            if (++logsHere > logsGiven) {
              logsGiven++;
              opts.onLog?.(JSON.parse(message.data) as JobLogLine);
            }
            continue;
          }
          if (message.event !== 'job') continue;
          failures = 0;
          lastEventId = message.id ?? lastEventId;
          const job = JSON.parse(message.data) as Job;
          yield { type: 'job', id: message.id, job };
          if (isFinalStatus(job.status)) {
            if (!opts.onLog) return;
            finished = true;
          }
        }
        if (finished) return;
      } catch (error) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        // The job is over; only late log lines were being read.
        if (finished) return;
        if (++failures > retries)
          throw new ConnectionError(`The stream of job ${jobId} kept failing: ${String(error)}`, { cause: error, jobId });
      }
      // Ended before the final status (a proxy or the network cut it): resume.
      await sleep(backoffMs(failures), opts.signal);
    }
  }

  /** The job once final: its stream, or reading it when the stream cannot be used. */
  async function waitFor(job: Job, opts: Pick<RunOptions, 'signal' | 'onEvent' | 'onLog'>): Promise<Job> {
    let current = job;
    try {
      for await (const event of stream(job.job_id, { signal: opts.signal, onLog: opts.onLog })) {
        current = event.job;
        opts.onEvent?.(event);
      }
    } catch (error) {
      if (
        opts.signal?.aborted ||
        !(error instanceof LimelightError) ||
        (error instanceof ApiError && error.status < 500 && error.status !== 429)
      )
        throw error;
    }
    for (let attempt = 0; !isFinalStatus(current.status); attempt++) {
      await sleep(Math.min(1000 * 2 ** Math.min(attempt, 3), 5000), opts.signal);
      current = await get(job.job_id, { signal: opts.signal });
    }
    return current;
  }

  /** Runs an endpoint and answers the FINISHED job's output (FileRefs as OutputFile). */
  async function run<S extends string, E extends string = EndpointOf<S>>(serviceId: S, opts: RunOptions<S, E>): Promise<OutputOf<S, E>> {
    const timeout = opts.timeout !== undefined ? AbortSignal.timeout(opts.timeout) : undefined;
    const signal = timeout && opts.signal ? AbortSignal.any([opts.signal, timeout]) : (timeout ?? opts.signal);
    const reasonOf = () => (opts.signal?.aborted ? 'aborted' : 'timeout') as 'aborted' | 'timeout';
    /** The error for a wait that stopped while the job runs; with cancelOnAbort, the job cancelled first. */
    const stopped = async (jobId: string, reason: 'aborted' | 'timeout', cause: unknown) => {
      if (!opts.cancelOnAbort) {
        return new JobWaitError(
          `Stopped waiting for job ${jobId} (${reason}); it goes on: client.get(${JSON.stringify(jobId)})`,
          jobId,
          reason,
          cause,
        );
      }
      // The caller's signal has aborted: the cancel gets a bounded signal of its own.
      const failed = await cancel(jobId, { signal: AbortSignal.timeout(10_000) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const what = failed ? `cancelling it failed (${String(failed)}): client.cancel(${JSON.stringify(jobId)})` : 'it was cancelled';
      return new JobWaitError(`Stopped waiting for job ${jobId} (${reason}); ${what}`, jobId, reason, cause);
    };
    let job: Job;
    try {
      // The server's wait holds the answer until the job ends: callbacks that must see the job
      // while it runs get an answer at once and follow the stream.
      const watching = opts.onJob || opts.onEvent || opts.onLog;
      job = await submit(serviceId, { ...opts, wait: opts.wait ?? (watching ? 0 : MAX_PREFER_WAIT_S), signal });
    } catch (error) {
      if (!(error instanceof JobWaitError)) throw error;
      // Aborted while the submission was answered: the replay found the job, which runs on.
      throw await stopped(error.jobId, timeout?.aborted ? 'timeout' : 'aborted', error.cause);
    }
    opts.onJob?.(job);
    if (!isFinalStatus(job.status)) {
      try {
        job = await waitFor(job, { signal, onEvent: opts.onEvent, onLog: opts.onLog });
      } catch (error) {
        if (signal?.aborted) throw await stopped(job.job_id, reasonOf(), error);
        if (error instanceof LimelightError) error.jobId ??= job.job_id;
        throw error;
      }
    }
    if (job.status !== 'FINISHED') throw new JobFailedError(job);
    return withOutputFiles(job.result, options.fetch) as OutputOf<S, E>;
  }

  return {
    run,
    submit,
    get,
    cancel,
    list,
    stream,
    upload,
    /** The GPU price of the service and recent run times of the endpoint, to estimate a run's cost. */
    estimate: (serviceId: string, opts: { endpoint?: string; signal?: AbortSignal } = {}) => {
      const query = new URLSearchParams({ service_id: serviceId });
      if (opts.endpoint) query.set('endpoint', opts.endpoint);
      return http.json<JobEstimate>(`/v1/jobs/estimate?${query}`, { signal: opts.signal });
    },
    /** The whsec_… secret that signs your job webhooks. */
    webhookSecret: async (opts: { signal?: AbortSignal } = {}) =>
      (await http.json<{ secret: string }>('/v1/jobs/webhook-secret', opts)).secret,
    /** A service's OpenAPI 3.1 document (input and output schemas of its endpoints). */
    openapi: (serviceId: string, opts: { signal?: AbortSignal } = {}) =>
      http.json<Record<string, unknown>>(`/v1/services/${serviceId.split('/').map(encodeURIComponent).join('/')}/openapi.json`, opts),
    webhooks: { verify },
  };
}

export type LimelightClient = ReturnType<typeof createClient>;
