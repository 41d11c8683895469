import { boundText, RuntimeError, SERVICE_WORDS_MAX_CHARS, type JsonText, type RunContext, type RunResult } from '../runtime';
import { embeddedMedia, LARGE_JSON_BYTES, MEDIA_DEPTH, readLargeJson, type ResultPart } from './largeJson';

// How the HTTP runtime reads a service's answer. Two shapes are understood:
// - a plain answer: JSON (the result), text, or media bytes (stored, the result is a file ref);
// - a job-style answer (as Replicate, fal, RunPod or FastTaskAPI services give it): JSON with an
//   `id` (or `job_id`) and a `status`; while the status is not final, the runtime polls the job's
//   status URL (`urls.get`, `links.self`, `status_url`, a Location header, or FastTaskAPI's
//   `/status?job_id=`), reporting `progress` and `message` on the way.
// Media inside JSON results (FastTaskAPI's { content_type, content: base64 } files, or data:
// URIs) is stored, so the result stays readable after the service forgets it.

export type Answer = { kind: 'done'; result: RunResult } | JobStyleAnswer;

export interface JobStyleAnswer {
  kind: 'pending';
  id: string;
  statusUrl: URL;
  cancelUrl?: URL;
}

const PENDING = new Set(['queued', 'pending', 'starting', 'processing', 'running', 'in_progress', 'in_queue', 'in progress']);
const SUCCEEDED = new Set(['finished', 'succeeded', 'completed', 'complete', 'done', 'success', 'ok']);
const FAILED = new Set(['failed', 'error', 'timeout', 'timed_out']);
const CANCELLED = new Set(['canceled', 'cancelled', 'aborted']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A service's words as an error quotes them: on one line, bounded (runtime.ts, boundText). */
function snippet(text: string) {
  return boundText(text.replace(/\s+/g, ' ').trim(), SERVICE_WORDS_MAX_CHARS);
}

function errorDetail(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes);
  try {
    const body = JSON.parse(text) as unknown;
    if (isObject(body)) {
      for (const key of ['detail', 'message', 'error']) {
        const value = body[key];
        if (typeof value === 'string') return snippet(value);
        if (value !== undefined) return snippet(JSON.stringify(value));
      }
    }
  } catch {
    // not JSON: the text itself
  }
  return snippet(text) || 'no details';
}

function urlField(body: Json, base: URL, ...paths: string[][]): URL | undefined {
  for (const path of paths) {
    let value: unknown = body;
    for (const key of path) value = isObject(value) ? value[key] : undefined;
    if (typeof value === 'string' && value !== '') {
      try {
        return new URL(value, base);
      } catch {
        // an unusable URL: try the next field
      }
    }
  }
  return undefined;
}

/** Stores media found in a JSON result and replaces it by a file reference. */
async function storeEmbeddedMedia(value: unknown, ctx: RunContext, depth = 0): Promise<unknown> {
  if (depth > MEDIA_DEPTH) return value;
  const media = embeddedMedia(value);
  if (media) return ctx.storeMedia(Buffer.from(media.base64, 'base64'), media.contentType);
  if (Array.isArray(value)) return Promise.all(value.map((item) => storeEmbeddedMedia(item, ctx, depth + 1)));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) out[key] = await storeEmbeddedMedia(item, ctx, depth + 1);
  return out;
}

/** Which part of a large answer is the result: all of it, a finished job's output, or none yet. */
function resultPart(shell: Json | undefined): ResultPart {
  const job = shell ? jobStyle(shell) : undefined;
  if (!job) return null;
  return SUCCEEDED.has(job.status) ? ['output', 'result', 'data'] : false;
}

function jobStyle(body: Json): { id: string; status: string } | undefined {
  const id = body.id ?? body.job_id ?? body.request_id;
  const status = body.status;
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof status !== 'string') return undefined;
  return { id: String(id), status: status.toLowerCase() };
}

function reportProgress(body: Json, ctx: RunContext) {
  const raw = typeof body.progress === 'number' ? body.progress : undefined;
  const message = typeof body.message === 'string' ? body.message : undefined;
  if (raw === undefined && message === undefined) return;
  const fraction = raw === undefined ? 0 : raw > 1 ? raw / 100 : raw;
  ctx.progress(Math.min(1, Math.max(0, fraction)), message);
}

export async function interpretAnswer(
  response: Response,
  bytes: Uint8Array,
  requestUrl: URL,
  ctx: RunContext,
  previous?: JobStyleAnswer,
): Promise<Answer> {
  if (response.status >= 300 && response.status < 400) {
    throw new RuntimeError('service_error', `The service answered ${response.status} (a redirect); the platform does not follow redirects`);
  }
  if (response.status >= 400) {
    throw new RuntimeError('service_error', `The service answered ${response.status}: ${errorDetail(bytes)}`);
  }
  const contentType = (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
  const isJson = contentType === 'application/json' || contentType.endsWith('+json');
  if (!isJson) {
    if (contentType.startsWith('text/')) return { kind: 'done', result: new TextDecoder().decode(bytes) };
    return { kind: 'done', result: await ctx.storeMedia(bytes, contentType) };
  }
  let body: unknown;
  // A large answer is read in a data thread (largeJson.ts); then `large` is its result.
  let large: JsonText | undefined;
  try {
    if (bytes.byteLength >= LARGE_JSON_BYTES) ({ shell: body, result: large } = await readLargeJson(bytes, ctx, resultPart));
    else body = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new RuntimeError('service_error', 'The service answered invalid JSON');
  }
  const job = isObject(body) ? jobStyle(body) : undefined;
  if (!job || !isObject(body)) return { kind: 'done', result: large ?? (await storeEmbeddedMedia(body, ctx)) };

  reportProgress(body, ctx);
  if (PENDING.has(job.status)) {
    const location = response.headers.get('location');
    const statusUrl =
      urlField(body, requestUrl, ['urls', 'get'], ['links', 'self'], ['status_url']) ??
      (location ? new URL(location, requestUrl) : undefined) ??
      previous?.statusUrl ??
      Object.assign(new URL('/status', requestUrl), { search: `?job_id=${encodeURIComponent(job.id)}` });
    const cancelUrl = urlField(body, requestUrl, ['urls', 'cancel'], ['links', 'cancel'], ['cancel_url']) ?? previous?.cancelUrl;
    return { kind: 'pending', id: job.id, statusUrl, ...(cancelUrl ? { cancelUrl } : {}) };
  }
  if (SUCCEEDED.has(job.status)) {
    if (large) return { kind: 'done', result: large };
    const result = body.output ?? body.result ?? body.data ?? null;
    return { kind: 'done', result: await storeEmbeddedMedia(result, ctx) };
  }
  const reason = typeof body.error === 'string' ? body.error : typeof body.message === 'string' ? body.message : `status ${job.status}`;
  if (FAILED.has(job.status)) throw new RuntimeError('service_failed', `The service's job failed: ${snippet(reason)}`);
  if (CANCELLED.has(job.status)) throw new RuntimeError('service_cancelled', 'The service cancelled the job');
  throw new RuntimeError('service_error', `The service answered an unknown job status "${snippet(job.status)}"`);
}
