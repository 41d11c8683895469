import type { EndpointParameter } from '@limelight/widgets/api';
import { RuntimeError, type RunContext, type Runtime, type RuntimeSlots } from '../runtime';
import { readLimited } from './readLimited';
import { checkServiceUrl, platformRequestHeaders, type UrlPolicy } from './urlPolicy';
import { interpretAnswer, type JobStyleAnswer } from './answers';

// The HTTP runtime: a publisher's service runs at its own base URL. The platform forwards the
// validated input (JSON, or multipart when the endpoint takes files), then either takes the
// plain answer as the result or, when the service answers job-style ({ id, status: "queued" }),
// polls the job's status URL until it ends. Media in the answer is stored, so results stay
// readable after the service forgets them. See docs/publishing.md.

/** Its jobs wait on the publisher's service: they run in the I/O slot pool. */
export const HTTP_RUNTIME: RuntimeSlots = { name: 'http', pool: 'io' };

export interface HttpRuntimeConfig {
  base_url: string;
  /** Extra request headers, e.g. a secret the service checks; stored encrypted at rest. */
  headers?: Record<string, string>;
}

export interface HttpRuntimeOptions {
  policy: UrlPolicy;
  /** Upper bound of one answer's body. */
  maxResponseBytes?: number;
  /** Delay between status polls of a job-style answer. */
  pollIntervalMs?: number;
  fetch?: typeof fetch;
  /**
   * `own-origin`: the service's status and cancel URLs must stay on its base URL's origin (a
   * container's: the platform chose that address, so nothing else it names is called; docs/security.md).
   * `policy` (the default): they go through the URL policy like the base URL (hosted APIs answer
   * with another host's status URL).
   */
  followUps?: 'policy' | 'own-origin';
  /**
   * How the messages a caller reads (progress, errors) name the service instead of its address:
   * a container's address is on the runner's network, the runner's business (docs/security.md,
   * "Container hosting"), so a container job says "Calling instance 3f2a…". Unset: the origin.
   */
  shownAs?: string;
}

const DEFAULT_MAX_RESPONSE = 50 * 1024 * 1024;
const DEFAULT_POLL_MS = 500;

export function joinUrl(base: string, path: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return url;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

async function buildRequest(
  input: Record<string, unknown>,
  parameters: EndpointParameter[],
  ctx: RunContext,
): Promise<{ body?: BodyInit; query?: URLSearchParams; contentType?: string }> {
  if (ctx.endpoint.method === 'GET') {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(input)) {
      if (value === undefined || value === null) continue;
      query.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    return { query };
  }
  const fileNames = new Set(parameters.filter((p) => p.type === 'file').map((p) => p.name));
  if (![...fileNames].some((name) => input[name] !== undefined)) {
    return { body: JSON.stringify(input), contentType: 'application/json' };
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (fileNames.has(name) && typeof value === 'string') {
      const file = await ctx.readFile(value);
      const extension = file.contentType.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
      form.append(name, new Blob([file.bytes.slice()], { type: file.contentType }), `${name}.${extension}`);
    } else {
      form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
  return { body: form };
}

/**
 * Names the job and its delivery on every request of a run, so a service can recognise a job
 * delivered again after a lost worker (docs/jobs.md, "Delivered at least once").
 */
export function deliveryHeaders(ctx: Pick<RunContext, 'jobId' | 'attempt'>): Record<string, string> {
  return { 'Idempotency-Key': ctx.jobId, 'Limelight-Attempt': String(ctx.attempt) };
}

export function createHttpRuntime(config: HttpRuntimeConfig, options: HttpRuntimeOptions): Runtime {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_MS;
  const origin = new URL(config.base_url).origin;
  const shown = options.shownAs ?? origin;
  /** `text` with the service's address named as the caller may read it. */
  const hidden = (text: string) => {
    const { host, hostname } = new URL(origin);
    return options.shownAs ? [origin, host, hostname].reduce((t, address) => t.replaceAll(address, shown), text) : text;
  };

  async function call(url: URL, init: RequestInit & { headers?: Record<string, string> }, signal: AbortSignal) {
    await checkServiceUrl(url, options.policy);
    let response: Response;
    try {
      // Redirects are not followed: a redirect could lead the platform to an address the URL
      // policy refuses.
      response = await doFetch(url, {
        ...init,
        headers: { ...config.headers, ...init.headers, ...platformRequestHeaders },
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new RuntimeError(
        'unreachable',
        `The service at ${shown} is unreachable (${hidden(cause?.code ?? cause?.message ?? (error as Error).message)})`,
        { cause: error },
      );
    }
    const bytes = await readLimited(response, maxBytes, signal).catch((error: unknown) => {
      if (signal.aborted) throw signal.reason;
      throw error;
    });
    return { response, bytes };
  }

  /** Whether a follow-up URL may be called: always, or only on the service's own origin. */
  const followUpAllowed = (url: URL) => options.followUps !== 'own-origin' || url.origin === origin;

  async function cancelUpstream(answer: JobStyleAnswer | undefined, headers: Record<string, string>) {
    if (!answer?.cancelUrl || !followUpAllowed(answer.cancelUrl)) return;
    // Best effort: the platform's job is cancelled whatever the service answers.
    await call(answer.cancelUrl, { method: 'POST', headers }, AbortSignal.timeout(5000)).catch(() => undefined);
  }

  return {
    name: HTTP_RUNTIME.name,
    async run(input, ctx) {
      const request = await buildRequest(input, ctx.endpoint.parameters, ctx);
      const url = joinUrl(config.base_url, ctx.endpoint.path);
      if (request.query) url.search = request.query.toString();
      ctx.progress(0, `Calling ${shown}`);
      const delivery = deliveryHeaders(ctx);
      const first = await call(
        url,
        {
          method: ctx.endpoint.method,
          body: request.body,
          headers: { ...delivery, ...(request.contentType ? { 'Content-Type': request.contentType } : {}) },
        },
        ctx.signal,
      );
      let answer = await interpretAnswer(first.response, first.bytes, url, ctx);
      while (answer.kind === 'pending') {
        const pending = answer;
        try {
          if (!followUpAllowed(pending.statusUrl)) {
            throw new RuntimeError(
              'invalid_url',
              options.shownAs
                ? `The service named another address as its job's status URL; only its own address (${shown}) is called`
                : `The service named ${pending.statusUrl.origin} as its job's status URL; only its own address (${origin}) is called`,
            );
          }
          await sleep(pollMs, ctx.signal);
          const polled = await call(pending.statusUrl, { method: 'GET', headers: delivery }, ctx.signal);
          answer = await interpretAnswer(polled.response, polled.bytes, pending.statusUrl, ctx, pending);
        } catch (error) {
          if (ctx.signal.aborted) await cancelUpstream(pending, delivery);
          throw error;
        }
      }
      ctx.progress(1);
      return answer.result;
    },
  };
}
