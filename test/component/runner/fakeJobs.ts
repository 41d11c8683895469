import type { ApiResult, FileRef, Job, JobCreate, JobsClient, SubscribeOptions } from '@limelight/widgets/api';

// The runner's jobs client, in memory, for the component tests: the widget's own behaviour is
// what is tested here (the real server is driven by test/e2e/run.spec.ts). Each call is
// recorded; the test decides what the server answers and pushes stream events by hand.

export const IMAGE_DATA_URI =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function makeJob(overrides: Partial<Job> = {}): Job {
  return {
    job_id: 'job-1',
    service_id: 'svc-image',
    endpoint: '/generate',
    status: 'QUEUED',
    progress: 0,
    message: null,
    input: {},
    result: null,
    error: null,
    runtime: 'local-demo',
    queue: { position: 0 },
    metrics: { queue_ms: null, run_ms: null, gpu_seconds: null, cost_credits: null },
    created_at: '2026-11-23T09:00:00.000Z',
    started_at: null,
    finished_at: null,
    output_expires_at: null,
    links: { self: '/v1/jobs/job-1', cancel: '/v1/jobs/job-1/cancel', stream: '/v1/jobs/job-1/stream' },
    ...overrides,
  };
}

type Answer<T> = ApiResult<T> | (() => ApiResult<T>);
const fail = (status: number, error: string, extra: object = {}) => ({
  ok: false as const,
  status,
  statusText: '',
  url: '/v1/jobs',
  error,
  ...extra,
});

export function fakeJobs(options: { recent?: Job[]; estimate?: { price: number; seconds: number[] } | null } = {}) {
  const created: JobCreate[] = [];
  const cancelled: string[] = [];
  const uploads: File[] = [];
  const subscribers = new Map<string, SubscribeOptions>();
  let createAnswers: Answer<Job>[] = [];
  let recent = options.recent ?? [];

  const client = {
    async create(body: JobCreate) {
      created.push(body);
      const next = createAnswers.shift();
      const answer = typeof next === 'function' ? next() : next;
      return (
        answer ?? {
          ok: true as const,
          status: 201,
          data: makeJob({ job_id: `job-${created.length}`, input: body.input, endpoint: body.endpoint ?? '/generate' }),
        }
      );
    },
    subscribe(jobId: string, sub: SubscribeOptions) {
      subscribers.set(jobId, sub);
      return { close: () => subscribers.delete(jobId), done: Promise.resolve(undefined) };
    },
    async cancel(jobId: string) {
      cancelled.push(jobId);
      return { ok: true as const, status: 200, data: makeJob({ job_id: jobId, status: 'CANCELLED' }) };
    },
    async list() {
      return { ok: true as const, status: 200, data: { jobs: recent, next_cursor: null } };
    },
    async estimate(serviceId: string, endpoint?: string) {
      if (options.estimate === null) return fail(401, 'Tokens not available. Login first.');
      const e = options.estimate ?? { price: 0.0005, seconds: [2, 4, 3] };
      return {
        ok: true as const,
        status: 200,
        data: {
          service_id: serviceId,
          endpoint: endpoint ?? '/generate',
          gpu: 'L4',
          price_per_s_usd: e.price,
          recent_run_seconds: e.seconds,
        },
      };
    },
    async uploadFile(file: Blob): Promise<ApiResult<FileRef>> {
      uploads.push(file as File);
      return { ok: true, status: 201, data: { url: IMAGE_DATA_URI, content_type: 'image/png', size: file.size } };
    },
    async get(jobId: string) {
      return { ok: true as const, status: 200, data: makeJob({ job_id: jobId }) };
    },
  };

  return {
    client: client as unknown as JobsClient,
    created,
    cancelled,
    uploads,
    /** The next create answers fail with this status (and field errors for 422). */
    failNextCreate(status: number, error: string, fieldErrors?: { name: string; rule: string; message: string }[]) {
      createAnswers.push(fail(status, error, fieldErrors ? { fieldErrors } : {}));
    },
    setRecent(jobs: Job[]) {
      recent = jobs;
    },
    /** Sends an envelope on the job's event stream. */
    push(job: Job) {
      const sub = subscribers.get(job.job_id);
      if (!sub) throw new Error(`nobody follows ${job.job_id}`);
      sub.onJob(job);
    },
    isFollowed: (jobId: string) => subscribers.has(jobId),
    reset() {
      createAnswers = [];
    },
  };
}
