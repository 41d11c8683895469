import type * as LimelightSdk from '@limelight/client';
import { createApiClient, type ClientOptions } from './http';
import { failure, INTERNAL_ERROR, OFFLINE_ERROR, TOKENS_MISSING_ERROR, type ApiFailure, type ApiResult } from './result';
import { createTokenSource } from './token';
import type { FileRef, Job, JobCreate, JobEstimateData, JobList } from './types';

// The job API (docs/jobs.md) for the widgets: create a run of a service endpoint, follow it,
// cancel it, list past runs, upload input files, and subscribe to its server-sent events. Every
// call goes through @limelight/client (docs/sdk.md), the one implementation of the job API, so
// the widgets get its retries (one Idempotency-Key per submission), stream resume and file
// handling. This module only adapts it to the widgets' conventions: the shared token source,
// "Login first" without a token, and results instead of exceptions (calls never throw).
//
// The SDK loads with the first call: the account panels get this client through
// createPlatformClients and never call it, so their script-tag bundles do not carry the SDK.

type Sdk = typeof LimelightSdk;
let sdkModule: Promise<Sdk> | undefined;
const loadSdk = () => (sdkModule ??= import('@limelight/client'));

export const JOBS_PREFIX = '/v1/';
export { MAX_PREFER_WAIT_S } from '@limelight/rules';

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
  /** Called with each line the job's container writes (stored lines first; none for other runtimes). */
  onLog?(line: { at: string; stream: 'stdout' | 'stderr'; text: string }): void;
  /** A failure that ends the subscription (401, 404) or a reconnect attempt (transient). */
  onError?(error: { status: number; message: string; willRetry: boolean }): void;
  /** Resume after this event id (a previous subscription's last `id`). */
  lastEventId?: string;
  /** Delay before following again after the connection failed for good, ms; doubles up to 10 s. Default 500. */
  retryMs?: number;
  signal?: AbortSignal;
}

const MAX_RETRY_MS = 10_000;

const isAbort = (error: unknown) => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
};

/** The widgets' failure (product-rules §7) for what an SDK call threw. */
function failureOf({ ApiError, ConnectionError, JobWaitError }: Sdk, error: unknown, url: string): ApiFailure {
  if (error instanceof ApiError) {
    const result = failure(error.status, error.code, url, error.detail);
    return error.fields.length ? { ...result, fieldErrors: error.fields } : result;
  }
  // No answer after the SDK's retries, or the caller stopped waiting: not a server fault.
  if (error instanceof ConnectionError || error instanceof JobWaitError || isAbort(error)) return failure(0, '', url, OFFLINE_ERROR);
  return failure(500, INTERNAL_ERROR, url, INTERNAL_ERROR);
}

/** Job calls; every call needs a session token or API key. */
export function createJobsClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: JOBS_PREFIX, defaultAuth: 'required' });
  const tokens = createTokenSource(options);
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const urlOf = (path: string) => `${options.baseURL.replace(/\/+$/, '')}${JOBS_PREFIX}${path}`;

  /**
   * One call through the SDK as an `ApiResult`. The SDK answers values and throws typed errors,
   * while a widget result carries the answer's status: so each call has an SDK instance of its
   * own (closures only, nothing to tear down) whose fetch notes the status of the answer used.
   */
  async function call<T>(path: string, run: (sdk: LimelightSdk.LimelightClient) => Promise<T>): Promise<ApiResult<T>> {
    const url = urlOf(path);
    let token = await tokens();
    if (!token) return failure(401, 'Unauthorized', url, TOKENS_MISSING_ERROR);
    let status = 0;
    let Sdk: Sdk;
    try {
      Sdk = await loadSdk();
    } catch {
      // Its chunk did not load (a script-tag page gone offline): try again on the next call.
      sdkModule = undefined;
      return failure(0, '', url, OFFLINE_ERROR);
    }
    const sdk = Sdk.createClient({
      baseUrl: options.baseURL,
      // The token just checked for the first request; later ones (retries, stream resumes) read
      // the source again, so a refreshed session is used.
      getToken: () => {
        const first = token;
        token = null;
        return first ?? tokens();
      },
      fetch: async (input, init) => {
        const response = await fetchImpl(input, init);
        status = response.status;
        return response;
      },
    });
    try {
      const data = await run(sdk);
      return { ok: true, status, data };
    } catch (error) {
      return failureOf(Sdk, error, url);
    }
  }

  const jobPath = (jobId: string) => `jobs/${encodeURIComponent(jobId)}`;

  function create(body: JobCreate, opts: CreateJobOptions = {}): Promise<ApiResult<Job>> {
    return call<Job>('jobs', (sdk) =>
      sdk.submit(body.service_id, {
        endpoint: body.endpoint,
        input: body.input,
        webhook: body.webhook,
        wait: opts.wait,
        idempotencyKey: opts.idempotencyKey,
        signal: opts.signal,
      }),
    );
  }

  /** Uploads one file for use as a file input; answers its `{ url, content_type, size }`. */
  function uploadFile(file: Blob, filename = 'upload', signal?: AbortSignal): Promise<ApiResult<FileRef>> {
    return call<FileRef>('files', (sdk) => sdk.upload(file, { filename: (file as File).name || filename, signal }));
  }

  /** One page of past runs, newest first; `next_cursor` pages on. */
  function list(query: ListJobsQuery = {}): Promise<ApiResult<JobList>> {
    return call<JobList>('jobs', async (sdk) => {
      const pages = sdk.list({ serviceId: query.service_id, limit: query.limit, cursor: query.cursor });
      const page = await pages.next();
      await pages.return(undefined);
      return page.value as JobList;
    });
  }

  /**
   * Follows a job's event stream until its final status. The SDK resumes a dropped connection
   * with `Last-Event-ID`, so no state is missed (each event carries the whole envelope); when it
   * gives up (offline, 5xx, 429) the subscription reports it and follows again after a pause,
   * for as long as the widget shows the job. 401/403/404 end it.
   */
  function subscribe(jobId: string, sub: SubscribeOptions): JobSubscription {
    const controller = new AbortController();
    const abort = () => controller.abort();
    sub.signal?.addEventListener('abort', abort, { once: true });
    let lastEventId = sub.lastEventId;
    let latest: Job | undefined;

    const follow = () =>
      call(`${jobPath(jobId)}/stream`, async (sdk) => {
        for await (const event of sdk.stream(jobId, { lastEventId, onLog: sub.onLog, signal: controller.signal })) {
          if (event.id) lastEventId = event.id;
          latest = event.job;
          sub.onJob(latest);
        }
      });

    const done = (async () => {
      let delay = sub.retryMs ?? 500;
      while (!controller.signal.aborted) {
        const outcome = await follow();
        if (outcome.ok || controller.signal.aborted) break;
        const willRetry = outcome.status === 0 || outcome.status >= 500 || outcome.status === 429;
        sub.onError?.({ status: outcome.status, message: outcome.error, willRetry });
        if (!willRetry) break;
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
    get: (jobId: string): Promise<ApiResult<Job>> => call<Job>(jobPath(jobId), (sdk) => sdk.get(jobId)),
    cancel: (jobId: string): Promise<ApiResult<Job>> => call<Job>(`${jobPath(jobId)}/cancel`, (sdk) => sdk.cancel(jobId)),
    list,
    /** Price of the service's GPU and recent run times of the endpoint (feed `estimateRun`). */
    estimate: (serviceId: string, endpoint?: string): Promise<ApiResult<JobEstimateData>> =>
      call<JobEstimateData>('jobs/estimate', (sdk) => sdk.estimate(serviceId, { endpoint })),
    uploadFile,
    subscribe,
  };
}

export type JobsClient = ReturnType<typeof createJobsClient>;
