import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import { MAX_PREFER_WAIT_S, type JobCreate } from '@limelight/widgets/api';
import type { SignedInEnv } from '../api/authenticate';
import type { ApiDeps } from '../api/deps';
import { createApiApp } from '../api/openapi';
import { ErrorSchema } from '../api/schemas';
import { isFinalStatus } from './envelope';
import { sleep } from './events';
import { UPLOAD_TYPES } from './files';
import {
  EstimateQuerySchema,
  EstimateSchema,
  FileRefSchema,
  JobCreateSchema,
  JobErrorBodySchema,
  JobIdParamSchema,
  JobListQuerySchema,
  JobListSchema,
  JobSchema,
  WebhookSecretSchema,
} from './schemas';
import { JobApiError } from './service';
import { webhookSecretOf } from './webhooks';

// /v1/jobs and /v1/files (docs/jobs.md). Thin: parse, authenticate, call JobService, answer.

const tags = ['jobs'];
/** Streams send a comment this often so proxies and clients know the connection lives. */
export const HEARTBEAT_MS = 15_000;
/** Streams re-read the job this often when no notification arrives. */
const STREAM_POLL_MS = 2_000;

const jsonOf = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const problem = (description: string) => jsonOf(JobErrorBodySchema, description);

/** `Prefer: wait=N` -> seconds (≤ 60), or undefined. */
export function preferWait(header: string | undefined): number | undefined {
  const match = header?.match(/(?:^|[,;\s])wait\s*=\s*(\d+)/i);
  return match ? Math.min(MAX_PREFER_WAIT_S, Number(match[1])) : undefined;
}

/** A JobApiError as its response; typed `never` so each route's success types stay exact. */
export function answerError(c: Context, error: unknown): never {
  if (!(error instanceof JobApiError)) throw error;
  return c.json({ detail: error.detail, ...(error.errors ? { errors: error.errors } : {}) }, error.status) as never;
}

/**
 * Queues a job and answers as POST /v1/jobs does: Prefer: wait, Idempotency-Key replay,
 * Location. Shared with the per-service run operations (serviceApi/routes.ts).
 */
export async function answerJobCreate(c: Context, deps: Pick<ApiDeps, 'jobs'>, userId: string, body: JobCreate) {
  const { jobs } = deps;
  const key = c.req.header('idempotency-key')?.trim() || undefined;
  const { row, replayed } = await jobs.create(userId, body, key);
  const wait = preferWait(c.req.header('prefer'));
  const answer = wait && !isFinalStatus(row.status) ? await jobs.waitForFinal(userId, row.id, wait * 1000, c.req.raw.signal) : row;
  if (wait !== undefined) c.header('Preference-Applied', `wait=${wait}`);
  if (replayed) c.header('Idempotent-Replayed', 'true');
  c.header('Location', `/v1/jobs/${row.id}`);
  return c.json(await jobs.envelope(answer), replayed ? 200 : 201);
}

/** /v1/jobs: mounted signed-in (session or API key) in api/mounts.ts; handlers read `c.var.caller`. */
export function jobRoutes(deps: ApiDeps) {
  const app = createApiApp<SignedInEnv>();
  const { jobs } = deps;
  const guard = <R>(c: Context, run: () => Promise<R>) => run().catch((error) => answerError(c, error));

  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Run a service endpoint: queue a job',
      description:
        'Validates the input against the endpoint parameters (422 lists each bad field), checks credits (402) and queues the job. `Prefer: wait=N` (N ≤ 60) answers when the job ends or after N seconds. A repeated `Idempotency-Key` answers the same job.',
      request: {
        body: { content: { 'application/json': { schema: JobCreateSchema } }, required: true },
        headers: z.object({ prefer: z.string().optional(), 'idempotency-key': z.string().max(200).optional() }),
      },
      responses: {
        200: jsonOf(JobSchema, 'The job created earlier with this Idempotency-Key'),
        201: jsonOf(JobSchema, 'Job queued (or ended, with Prefer: wait)'),
        401: problem('Missing or invalid credentials'),
        402: problem('Not enough credits; detail links to billing'),
        404: problem('Unknown service or endpoint'),
        409: problem('Idempotency-Key reused for a different request'),
        422: problem('Invalid input: errors lists each field'),
        503: problem('No runtime serves this service here'),
      },
    }),
    (c) => guard(c, () => answerJobCreate(c, deps, c.var.caller.userId, c.req.valid('json'))),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: "The caller's jobs, newest first",
      request: { query: JobListQuerySchema },
      responses: {
        200: jsonOf(JobListSchema, 'A page of jobs'),
        401: problem('Missing or invalid credentials'),
        422: problem('Bad query'),
      },
    }),
    (c) =>
      guard(c, async () => {
        const caller = c.var.caller;
        const query = c.req.valid('query');
        const page = await jobs.list(caller.userId, { serviceId: query.service_id, limit: query.limit, cursor: query.cursor });
        return c.json({ jobs: await Promise.all(page.rows.map((row) => jobs.envelope(row))), next_cursor: page.nextCursor }, 200);
      }),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/estimate',
      tags,
      summary: "Price of the service's GPU and recent run times of the endpoint (for a cost estimate)",
      request: { query: EstimateQuerySchema },
      responses: {
        200: jsonOf(EstimateSchema, 'Estimate data'),
        401: problem('Missing or invalid credentials'),
        404: problem('Unknown service or endpoint'),
      },
    }),
    (c) =>
      guard(c, async () => {
        const caller = c.var.caller;
        const query = c.req.valid('query');
        return c.json(await jobs.estimate(caller.userId, query.service_id, query.endpoint), 200);
      }),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhook-secret',
      tags,
      summary: 'The secret that signs your job webhooks (Standard Webhooks, whsec_…)',
      responses: { 200: jsonOf(WebhookSecretSchema, 'Signing secret'), 401: problem('Missing or invalid credentials') },
    }),
    async (c) => {
      const caller = c.var.caller;
      return c.json({ secret: webhookSecretOf(deps.linkKey, caller.userId) }, 200);
    },
  );

  // GET /jobs/{job_id} and POST /jobs/{job_id}/cancel: one job of the caller's in, its envelope out.
  const jobActions = [
    { method: 'get', path: '/{job_id}', summary: 'A job', answer: 'The job', act: jobs.get.bind(jobs) },
    {
      method: 'post',
      path: '/{job_id}/cancel',
      summary: 'Cancel a job (a final job is answered unchanged)',
      answer: 'The job after cancelling',
      act: (userId: string, jobId: string) => jobs.cancel(userId, jobId),
    },
  ] as const;
  for (const action of jobActions) {
    app.openapi(
      createRoute({
        method: action.method,
        path: action.path,
        tags,
        summary: action.summary,
        request: { params: JobIdParamSchema },
        responses: {
          200: jsonOf(JobSchema, action.answer),
          401: problem('Missing or invalid credentials'),
          404: problem('No such job of yours'),
        },
      }),
      (c) =>
        guard(c, async () => {
          const caller = c.var.caller;
          return c.json(await jobs.envelope(await action.act(caller.userId, c.req.valid('param').job_id)), 200);
        }),
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{job_id}/stream',
      tags,
      summary: 'Server-sent events: the envelope on every change, ending after the final status',
      description:
        'Each event is `event: job`, `id: <version>`, `data: <envelope>`. Reconnect with `Last-Event-ID` to resume; a comment line is sent every 15 s as heartbeat.',
      request: { params: JobIdParamSchema },
      responses: {
        200: { description: 'Event stream', content: { 'text/event-stream': { schema: z.string() } } },
        401: problem('Missing or invalid credentials'),
        404: problem('No such job of yours'),
      },
    }),
    (c) =>
      guard(c, async () => {
        const caller = c.var.caller;
        const jobId = c.req.valid('param').job_id;
        await jobs.get(caller.userId, jobId);
        const lastId = Number(c.req.header('last-event-id'));
        let sent = Number.isFinite(lastId) ? lastId : 0;
        c.header('Cache-Control', 'no-cache');
        c.header('X-Accel-Buffering', 'no');
        return streamSSE(c, async (stream) => {
          const gone = new AbortController();
          stream.onAbort(() => gone.abort());
          let lastWrite = Date.now();
          while (!gone.signal.aborted) {
            const row = await jobs.get(caller.userId, jobId);
            if (row.version > sent) {
              await stream.writeSSE({ event: 'job', id: String(row.version), data: JSON.stringify(await jobs.envelope(row)) });
              sent = row.version;
              lastWrite = Date.now();
            }
            if (isFinalStatus(row.status)) break;
            const pause = sleep(Math.min(STREAM_POLL_MS, HEARTBEAT_MS - (Date.now() - lastWrite)), gone.signal);
            const off = jobs.events.onChanged(jobId, (version) => version > sent && pause.wake());
            await pause.promise;
            off();
            if (Date.now() - lastWrite >= HEARTBEAT_MS) {
              await stream.write(': heartbeat\n\n');
              lastWrite = Date.now();
            }
          }
        }) as unknown as Response;
      }),
  );

  return app;
}

/** /v1/files: one upload for a file input; mounted signed-in in api/mounts.ts. */
export function fileRoutes(deps: ApiDeps) {
  const app = createApiApp<SignedInEnv>();
  const maxUpload = deps.config.jobs.maxUploadBytes;
  app.openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      middleware: [
        bodyLimit({
          maxSize: maxUpload + 64 * 1024,
          onError: (c) => c.json({ detail: `file: too large; the limit is ${maxUpload} bytes` }, 413, { Connection: 'close' }),
        }),
      ] as const,
      summary: 'Upload one file for a file input (multipart/form-data, field "file")',
      request: {
        body: {
          content: { 'multipart/form-data': { schema: z.object({ file: z.any().openapi({ type: 'string', format: 'binary' }) }) } },
          required: true,
        },
      },
      responses: {
        201: jsonOf(FileRefSchema, 'Stored; pass url as the file input'),
        401: jsonOf(ErrorSchema, 'Missing or invalid credentials'),
        413: jsonOf(ErrorSchema, 'File too large'),
        415: jsonOf(ErrorSchema, 'File type not accepted'),
        422: jsonOf(ErrorSchema, 'No file field'),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      if (!/^multipart\/form-data/i.test(c.req.header('content-type') ?? '')) {
        return c.json({ detail: 'Send the file as multipart/form-data with the field "file"' }, 415);
      }
      const form = await c.req.parseBody({ all: true }).catch(() => undefined);
      const field = form?.file;
      const files = (Array.isArray(field) ? field : [field]).filter(
        (f): f is File => typeof f === 'object' && f !== null && 'arrayBuffer' in f,
      );
      if (files.length !== 1) return c.json({ detail: 'file: send exactly one file in the field "file"' }, 422);
      const file = files[0]!;
      if (file.size > maxUpload) return c.json({ detail: `file: ${file.size} bytes is too large; the limit is ${maxUpload} bytes` }, 413);
      const type = file.type.split(';')[0]!.trim().toLowerCase();
      if (!UPLOAD_TYPES.has(type)) {
        return c.json({ detail: `file: type ${type || 'unknown'} is not accepted; accepted: ${[...UPLOAD_TYPES].join(', ')}` }, 415);
      }
      const ref = await deps.jobFiles.put(new Uint8Array(await file.arrayBuffer()), type, {
        userId: caller.userId,
        expiresAt: new Date(Date.now() + deps.config.jobs.retentionHours * 3600_000),
      });
      return c.json(ref, 201);
    },
  );
  return app;
}
