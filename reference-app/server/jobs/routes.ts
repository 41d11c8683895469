import { OpenStreams, type StreamRefusal } from './openStreams';
import { storageQuotaProblem } from '../media/storageQuota';
import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from '../http/bodyLimit';
import { readFormField } from '../http/formThread';
import type { Context } from 'hono';
import { MAX_PREFER_WAIT_S } from '@limelight/rules';
import type { JobCreate } from '@limelight/widgets/api';
import type { SignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import type { Db } from '../db/types';
import type { StorageQuotas } from '../media/storageQuota';
import type { JobsConfig } from './config';
import type { JobService } from './service';
import { IdempotencyKeyHeaders, idempotencyKeyOf } from '../api/idempotency';
import { createApiApp } from '../api/openapi';
import { ErrorSchema } from '../api/schemas';
import { isFinalStatus } from './envelope';
import { UPLOAD_TYPES, type FileStore } from './files';
import {
  CREATE_REFUSED_429,
  EstimateQuerySchema,
  EstimateSchema,
  FileRefSchema,
  HoldsSchema,
  JobCreateSchema,
  JobErrorBodySchema,
  JobIdParamSchema,
  JobListQuerySchema,
  JobListSchema,
  JobSchema,
  WebhookSecretSchema,
} from './schemas';
import { jobLogSource } from '../hosting/jobLogs';
import { followJob } from './stream';
import { rotateWebhookSecret, WEBHOOK_SECRET_OVERLAP_HOURS, webhookSecretBox, webhookSecretsOf } from './webhookSecrets';

/** The signing secret is an account secret: an API key (for running services) cannot read or rotate it. */
const WEBHOOK_SECRET_NEEDS_SESSION = 'API keys (lime_…) cannot read or rotate the webhook secret; sign in to the account';

// /v1/jobs and /v1/files (docs/jobs.md). Thin: parse, authenticate, call JobService, answer.

const tags = ['jobs'];

/** POST /v1/files' body as the OpenAPI document shows it (see the route for why it is not Zod). */
const UPLOAD_FORM_SCHEMA = {
  type: 'object' as const,
  required: ['file'],
  properties: { file: { type: 'string' as const, format: 'binary' } },
};

const jsonOf = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const problem = (description: string) => jsonOf(JobErrorBodySchema, description);

/** `Prefer: wait=N` -> seconds (≤ 60), or undefined. */
export function preferWait(header: string | undefined): number | undefined {
  const match = header?.match(/(?:^|[,;\s])wait\s*=\s*(\d+)/i);
  return match ? Math.min(MAX_PREFER_WAIT_S, Number(match[1])) : undefined;
}

/** What the job and file routes read: the server's settings, the queue's and the storage quotas. */
export interface JobRouteDeps {
  db: Db;
  config: CoreConfig & { jobs: JobsConfig; storageQuotas: StorageQuotas };
  jobs: JobService;
  jobFiles: FileStore;
  linkKey: Buffer;
}

/**
 * Queues a job and answers as POST /v1/jobs does: Prefer: wait, Idempotency-Key replay,
 * Location. Shared with the per-service run operations (serviceApi/routes.ts).
 */
export async function answerJobCreate(c: Context, deps: Pick<JobRouteDeps, 'jobs'>, userId: string, body: JobCreate) {
  const { jobs } = deps;
  const key = idempotencyKeyOf(c);
  const { row, replayed } = await jobs.create(userId, body, key);
  const wait = preferWait(c.req.header('prefer'));
  const answer = wait && !isFinalStatus(row.status) ? await jobs.waitForFinal(userId, row.id, wait * 1000, c.req.raw.signal) : row;
  if (wait !== undefined) c.header('Preference-Applied', `wait=${wait}`);
  if (replayed) c.header('Idempotent-Replayed', 'true');
  c.header('Location', `/v1/jobs/${row.id}`);
  return c.json(await jobs.envelope(answer), replayed ? 200 : 201);
}

/** Seconds a client waits before trying a stream again when the server holds all it may. */
const STREAMS_FULL_RETRY_AFTER_S = 5;

/**
 * A stream over a cap: 429 when it is the caller's own (they hold their share), 503 with
 * Retry-After when the process holds as many as it may for everyone (not the caller's doing;
 * a client retries later, a load balancer may send it to another process).
 */
function refuseStream(c: Context, openStreams: OpenStreams, refused: StreamRefusal) {
  if (refused === 'user')
    return c.json({ detail: `Too many open job streams: at most ${openStreams.perUser} per account at once; close one first` }, 429);
  return c.json(
    {
      detail: `This server holds as many open job streams as it may (${openStreams.total}); retry in ${STREAMS_FULL_RETRY_AFTER_S} s, or poll GET /v1/jobs/{job_id}`,
      code: 'streams_full',
    },
    503,
    { 'Retry-After': String(STREAMS_FULL_RETRY_AFTER_S) },
  );
}

/** /v1/jobs: mounted signed-in (session or API key) in v1/mounts.ts; handlers read `c.var.caller`. */
export function jobRoutes(deps: JobRouteDeps) {
  const app = createApiApp<SignedInEnv>();
  const { jobs } = deps;
  const openStreams = new OpenStreams(deps.config.streamsPerUser, deps.config.streamsTotal);
  const secretBox = webhookSecretBox(deps.linkKey);
  const jobLogs = jobLogSource(deps.db);

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
        headers: IdempotencyKeyHeaders.extend({ prefer: z.string().optional() }),
      },
      responses: {
        200: jsonOf(JobSchema, 'The job created earlier with this Idempotency-Key'),
        201: jsonOf(JobSchema, 'Job queued (or ended, with Prefer: wait)'),
        401: problem('Missing or invalid credentials'),
        402: problem('Not enough credits for the hold; detail links to billing'),
        404: problem('Unknown service or endpoint'),
        409: problem('Idempotency-Key reused for a different request'),
        422: problem('Invalid input: errors lists each field'),
        429: problem(CREATE_REFUSED_429),
        503: problem('No runtime serves this service here'),
      },
    }),
    (c) => answerJobCreate(c, deps, c.var.caller.userId, c.req.valid('json')),
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
    async (c) => {
      const caller = c.var.caller;
      const query = c.req.valid('query');
      const page = await jobs.list(caller.userId, { serviceId: query.service_id, limit: query.limit, cursor: query.cursor });
      return c.json({ jobs: await Promise.all(page.rows.map((row) => jobs.envelope(row))), next_cursor: page.nextCursor }, 200);
    },
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
    async (c) => {
      const caller = c.var.caller;
      const query = c.req.valid('query');
      return c.json(await jobs.estimate(caller.userId, query.service_id, query.endpoint), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/holds',
      tags,
      summary: 'Credits reserved by your queued and running jobs (each job holds its worst case until it ends)',
      responses: { 200: jsonOf(HoldsSchema, 'Open holds'), 401: problem('Missing or invalid credentials') },
    }),
    async (c) => c.json(await jobs.holds(c.var.caller.userId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/webhook-secret',
      tags,
      summary: 'The secret that signs your job webhooks (Standard Webhooks, whsec_…); sessions only, not API keys',
      responses: {
        200: jsonOf(WebhookSecretSchema, 'Signing secret'),
        401: problem('Missing or invalid credentials'),
        403: problem('Asked with an API key'),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      if (caller.via === 'api_key') return c.json({ detail: WEBHOOK_SECRET_NEEDS_SESSION }, 403);
      return c.json({ secret: (await webhookSecretsOf(deps.db, secretBox, caller.userId)).current }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/webhook-secret/rotate',
      tags,
      summary: `A new webhook signing secret; the old one still signs deliveries for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours`,
      responses: {
        200: jsonOf(WebhookSecretSchema, 'The new signing secret'),
        401: problem('Missing or invalid credentials'),
        403: problem('Asked with an API key'),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      if (caller.via === 'api_key') return c.json({ detail: WEBHOOK_SECRET_NEEDS_SESSION }, 403);
      return c.json({ secret: (await rotateWebhookSecret(deps.db, secretBox, caller.userId)).current }, 200);
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
      async (c) => {
        const caller = c.var.caller;
        const envelope = await jobs.envelope(await action.act(caller.userId, c.req.valid('param').job_id));
        // Only the caller's own job reaches here (act checks): its container's lines are the job's own.
        if (action.method === 'get') return c.json({ ...envelope, logs: (await jobLogs(envelope.job_id, '0')).lines }, 200);
        return c.json(envelope, 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/{job_id}/stream',
      tags,
      summary: 'Server-sent events: the envelope on every change, ending after the final status',
      description:
        'Each event is `event: job`, `id: <version>`, `data: <envelope>`. Reconnect with `Last-Event-ID` to resume; a comment line is sent every 15 s as heartbeat. A container job\'s log lines come as `event: log`, `data: {"at","stream","text"}`: the stored lines first, then each as it is written, always before the job event that follows them.',
      request: { params: JobIdParamSchema },
      responses: {
        200: { description: 'Event stream', content: { 'text/event-stream': { schema: z.string() } } },
        401: problem('Missing or invalid credentials'),
        404: problem('No such job of yours'),
        429: problem('Too many open streams of this account'),
        503: problem('This server holds as many open streams as it may; retry after Retry-After'),
      },
    }),
    async (c) => {
      const caller = c.var.caller;
      const jobId = c.req.valid('param').job_id;
      await jobs.get(caller.userId, jobId);
      const slot = openStreams.acquire(caller.userId);
      if ('refused' in slot) return refuseStream(c, openStreams, slot.refused);
      const lastId = Number(c.req.header('last-event-id'));
      return followJob(c, jobs, caller.userId, jobId, Number.isFinite(lastId) ? lastId : 0, slot.release, jobLogs);
    },
  );

  return app;
}

/** /v1/files: one upload for a file input; mounted signed-in in v1/mounts.ts. */
export function fileRoutes(deps: JobRouteDeps) {
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
          // A plain schema, not a Zod one: for a Zod schema the router parses the whole form on
          // the event loop before the handler runs (a 24 MB upload stalled it 200-300 ms); the
          // handler parses it in a data thread instead (http/formThread.ts).
          content: { 'multipart/form-data': { schema: UPLOAD_FORM_SCHEMA } },
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
      // Read as bytes and parsed in a data thread: a 25 MB form parsed here stalled the loop (http/formThread.ts).
      const body = new Uint8Array(await c.req.arrayBuffer());
      const field = await readFormField(body, c.req.header('content-type')!, 'file');
      if (field?.files.length !== 1 || field.others > 0) return c.json({ detail: 'file: send exactly one file in the field "file"' }, 422);
      const file = { ...field.files[0]!, size: field.files[0]!.bytes.byteLength };
      if (file.size > maxUpload) return c.json({ detail: `file: ${file.size} bytes is too large; the limit is ${maxUpload} bytes` }, 413);
      const type = file.type.split(';')[0]!.trim().toLowerCase();
      if (!UPLOAD_TYPES.has(type)) {
        return c.json({ detail: `file: type ${type || 'unknown'} is not accepted; accepted: ${[...UPLOAD_TYPES].join(', ')}` }, 415);
      }
      const overQuota = await storageQuotaProblem(deps.db, deps.config.storageQuotas, caller.userId, file.size);
      if (overQuota) return c.json({ detail: overQuota }, 413);
      const ref = await deps.jobFiles.put(file.bytes, type, {
        userId: caller.userId,
        expiresAt: new Date(Date.now() + deps.config.jobs.retentionHours * 3600_000),
      });
      return c.json(ref, 201);
    },
  );
  return app;
}
