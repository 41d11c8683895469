import { expect, it } from 'vitest';
import {
  createClient,
  JobWaitError,
  OutputFile,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type ClientOptions,
  type JobEvent,
  type JobLogLine,
} from '@limelight/client';
import list from '../sdk/scenarios.json';

// The shared SDK scenarios (test/sdk/scenarios.json, docs/sdk.md) for @limelight/client against
// the real platform server, in Node (test/integration/client/sdk-parity.test.ts) and in Chromium
// (test/component/client/client.test.ts); sdk/python/tests/test_scenarios.py runs the same list
// in Python. Each runtime's file adds what only it has (Node paths and streams, a flaky server).

export type Runtime = 'node' | 'chromium';
export const SCENARIOS: { id: string; expect: string; runs: string[]; not_in?: Record<string, string> }[] = list.scenarios;

export const TEXT2IMG = 'lime-diffusion-xl';
export const PNG_1PX = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

export interface Target {
  baseUrl: string;
  /** A fresh user's credential: an API key in Node, an access token in the browser. */
  credential: Pick<ClientOptions, 'apiKey' | 'token'>;
  /** The same user's signed-in access token: the webhook secret is an account secret that an API key may not read. */
  accountToken?: string;
  /** A receiver the server delivers webhooks to (Node only: a page cannot receive one). */
  webhookReceiver?: () => Promise<{ url: string; received: { type: string; prompt: unknown }[] }>;
}

/**
 * A fetch that cuts the first answer of `/stream` after its first event, as a proxy dropping the
 * connection would, and records every stream request's Last-Event-ID.
 */
export function droppingFetch() {
  const lastEventIds: (string | null)[] = [];
  let dropped = false;
  const wrapped: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (!url.endsWith('/stream')) return response;
    lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
    if (dropped) return response;
    dropped = true;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        seen += decoder.decode(value, { stream: true });
        if (seen.includes('\n\n')) {
          await reader.cancel();
          controller.error(new TypeError('network error: connection reset'));
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: wrapped, lastEventIds };
}

/**
 * A container job's stream as the server sends it, from a fetch of its own (the real server's
 * log events are covered by test/integration/hosting/hosting-wire.test.ts): stored lines (no
 * event id) before each envelope, all of them again on a resumed connection, one after the final
 * envelope; the first connection ends after one envelope, as a proxy cutting it would.
 */
export function loggingFetch() {
  const lastEventIds: (string | null)[] = [];
  const line = (n: number): JobLogLine => ({ at: `2026-01-01T00:00:0${n}Z`, stream: n % 2 ? 'stdout' : 'stderr', text: `line ${n}` });
  const log = (n: number) => `event: log\ndata: ${JSON.stringify(line(n))}\n\n`;
  const job = (version: number, status: string) =>
    `event: job\nid: ${version}\ndata: ${JSON.stringify({ job_id: 'j1', status, result: status === 'FINISHED' ? { ok: true } : null })}\n\n`;
  const answer = (status: number, body: string, type = 'application/json') =>
    new Response(body, { status, headers: { 'Content-Type': type } });
  const wrapped: typeof fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method === 'POST') return answer(201, JSON.stringify({ job_id: 'j1', status: 'QUEUED' }));
    if (!url.endsWith('/stream')) return answer(200, JSON.stringify({ job_id: 'j1', status: 'FINISHED', result: { ok: true } }));
    lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
    const text =
      lastEventIds.length === 1
        ? log(1) + log(2) + job(3, 'PROCESSING')
        : ': heartbeat\n\n' + log(1) + log(2) + log(3) + 'event: other\ndata: {}\n\n' + job(4, 'FINISHED') + log(4);
    return answer(200, text, 'text/event-stream');
  };
  return { fetch: wrapped, lastEventIds, line };
}

type Client = ReturnType<typeof createClient>;
interface Context {
  target: () => Promise<Target>;
  client: (options?: Partial<ClientOptions>) => Promise<Client>;
}

const small = (prompt: string) => ({ prompt, width: 64, height: 64 });

/** One implementation per scenario of test/sdk/scenarios.json. */
const IMPLEMENTATIONS: Record<string, (context: Context) => Promise<void>> = {
  'run-output': async ({ client }) => {
    const c = await client();
    const output = (await c.run(TEXT2IMG, { input: { prompt: 'a lime on a desk', width: 128, height: 128 } })) as { image: OutputFile };
    expect(output.image).toBeInstanceOf(OutputFile);
    expect(output.image.url()).toMatch(/\/media\/files\//);
    const blob = await output.image.blob();
    expect(blob.size).toBe(output.image.size);
    expect(new Uint8Array(await blob.arrayBuffer()).slice(0, 4)).toEqual(PNG_1PX.slice(0, 4));
    const reader = (await output.image.stream()).getReader();
    expect((await reader.read()).value!.length).toBeGreaterThan(0);
    await reader.cancel();
    expect(JSON.parse(JSON.stringify(output.image))).toMatchObject({ url: output.image.url(), content_type: 'image/png' });
  },

  'stream-resume': async ({ client }) => {
    const dropping = droppingFetch();
    const c = await client({ fetch: dropping.fetch, retry: { baseDelayMs: 10 } });
    const job = await c.submit(TEXT2IMG, { input: { prompt: 'streamed lime', width: 128, height: 128 } });
    const events = [];
    for await (const event of c.stream(job.job_id)) events.push(event);
    expect(events.at(-1)!.job.status).toBe('FINISHED');
    expect(dropping.lastEventIds.length).toBeGreaterThanOrEqual(2);
    expect(dropping.lastEventIds[0]).toBeNull();
    expect(dropping.lastEventIds[1]).toBe(events[0]!.id);
    const versions = events.map((e) => Number(e.id));
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  },

  timeout: async ({ client }) => {
    const c = await client();
    const started = Date.now();
    const timedOut = await c.run(TEXT2IMG, { input: { prompt: 'slow', num_inference_steps: 150 }, timeout: 250 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(250 + 1000);
    expect(timedOut).toBeInstanceOf(JobWaitError);
    expect(timedOut).toMatchObject({ name: 'TimeoutError', reason: 'timeout' });
    const jobId = (timedOut as JobWaitError).jobId;
    expect(String(timedOut)).toContain(jobId);
    expect((await c.get(jobId)).status).not.toBe('CANCELLED'); // the job goes on
    expect((await c.cancel(jobId)).status).toBe('CANCELLED');
    // An abort, too, keeps the id; a call aborted before it starts sends nothing.
    const controller = new AbortController();
    const aborted = await c
      .run(TEXT2IMG, {
        input: { prompt: 'aborted wait', num_inference_steps: 150 },
        signal: controller.signal,
        onJob: () => controller.abort(),
      })
      .catch((error: unknown) => error);
    expect(aborted).toMatchObject({ name: 'AbortError' });
    expect((await c.cancel((aborted as JobWaitError).jobId)).status).toBe('CANCELLED');
    const before = new AbortController();
    before.abort();
    await expect(c.get(jobId, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
  },

  'cancel-on-abort': async ({ target }) => {
    // One user for every client here: each target() is a fresh one.
    const { baseUrl, credential } = await target();
    const c = createClient({ baseUrl, ...credential });
    const slow = { prompt: 'abandoned', num_inference_steps: 150 };
    const controller = new AbortController();
    const aborted = await c
      .run(TEXT2IMG, { input: slow, signal: controller.signal, cancelOnAbort: true, onJob: () => controller.abort() })
      .catch((e: unknown) => e);
    expect(aborted).toMatchObject({ name: 'AbortError', reason: 'aborted', jobId: expect.any(String) });
    expect((await c.get((aborted as JobWaitError).jobId)).status).toBe('CANCELLED');
    // A timeout is the caller giving up too; without the option the job goes on (see 'timeout').
    const timedOut = await c.run(TEXT2IMG, { input: slow, timeout: 250, cancelOnAbort: true }).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ name: 'TimeoutError', jobId: expect.any(String) });
    expect((await c.get((timedOut as JobWaitError).jobId)).status).toBe('CANCELLED');
    // A cancel that fails does not hide the abort: the error is still the abort, with the job id.
    const failing: typeof fetch = (input, init) =>
      String(input instanceof Request ? input.url : input).endsWith('/cancel')
        ? Promise.reject(new TypeError('network error: cancel lost'))
        : fetch(input, init);
    const lossy = createClient({ baseUrl, ...credential, fetch: failing, retry: { retries: 0 } });
    const again = new AbortController();
    const kept = await lossy
      .run(TEXT2IMG, { input: slow, signal: again.signal, cancelOnAbort: true, onJob: () => again.abort() })
      .catch((e: unknown) => e);
    expect(kept).toMatchObject({ name: 'AbortError', jobId: expect.any(String) });
    expect(String(kept)).toMatch(/cancelling it failed/);
    expect((await c.cancel((kept as JobWaitError).jobId)).status).toBe('CANCELLED');
  },

  callbacks: async ({ client }) => {
    const c = await client();
    const seen: string[] = [];
    await c.run(TEXT2IMG, {
      input: small('watched'),
      onJob: (job) => seen.push(`job:${job.status}`),
      onEvent: (event: JobEvent) => seen.push(`event:${event.job.status}`),
    });
    expect(seen[0]).toMatch(/^job:(QUEUED|PROCESSING)$/);
    expect(seen).toContain('event:PROCESSING');
    expect(seen.at(-1)).toBe('event:FINISHED');
  },

  'log-events': async ({ target }) => {
    const { baseUrl } = await target();
    const plain = loggingFetch();
    const quiet = createClient({ baseUrl, apiKey: 'lime_x', fetch: plain.fetch, retry: { baseDelayMs: 10 } });
    const statuses: string[] = [];
    for await (const event of quiet.stream('j1')) statuses.push(event.job.status);
    expect(statuses).toEqual(['PROCESSING', 'FINISHED']);
    const logging = loggingFetch();
    const c = createClient({ baseUrl, apiKey: 'lime_x', fetch: logging.fetch, retry: { baseDelayMs: 10 } });
    const seen: string[] = [];
    const output = await c.run('s', {
      input: { prompt: 'x' },
      onJob: (job) => seen.push(`job:${job.status}`),
      onEvent: (event) => seen.push(`event:${event.job.status}`),
      onLog: (line) => seen.push(`log:${line.text}`),
    });
    expect(output).toEqual({ ok: true });
    expect(seen).toEqual(['job:QUEUED', 'log:line 1', 'log:line 2', 'event:PROCESSING', 'log:line 3', 'event:FINISHED', 'log:line 4']);
    expect(logging.lastEventIds).toEqual([null, '3']);
  },

  async: async ({ client }) => {
    const c = await client();
    const jobs: string[] = [];
    const [first, second, late] = await Promise.all([
      c.run(TEXT2IMG, { input: small('side 1'), onJob: (job) => jobs.push(job.job_id) }),
      c.run(TEXT2IMG, { input: small('side 2'), onJob: (job) => jobs.push(job.job_id) }),
      c.run(TEXT2IMG, { input: { prompt: 'side late', num_inference_steps: 150 }, timeout: 250 }).catch((e: unknown) => e),
    ]);
    expect([first, second].map((o) => (o as { image: OutputFile }).image.content_type)).toEqual(['image/png', 'image/png']);
    expect(new Set(jobs).size).toBe(2);
    expect(late).toMatchObject({ name: 'TimeoutError', jobId: expect.any(String) });
    await c.cancel((late as JobWaitError).jobId);
  },

  uploads: async ({ client }) => {
    const c = await client();
    const inputs = [
      new Blob([PNG_1PX], { type: 'image/png' }),
      new File([PNG_1PX], 'pixel.png'),
      PNG_1PX,
      PNG_1PX.buffer,
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(PNG_1PX.slice(0, 10));
          controller.enqueue(PNG_1PX.slice(10));
          controller.close();
        },
      }),
    ];
    for (const input of inputs) {
      const ref = await c.upload(input);
      expect(ref).toMatchObject({ content_type: 'image/png', size: PNG_1PX.length });
      expect(new Uint8Array(await (await fetch(ref.url)).arrayBuffer())).toEqual(PNG_1PX);
    }
  },

  'typed-errors': async ({ client, target }) => {
    const c = await client();
    const invalid = await c.run(TEXT2IMG, { input: { width: 'wide' } }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ name: 'ApiError', status: 422, code: 'invalid_input' });
    expect((invalid as { fields: { name: string; rule: string }[] }).fields.map((f) => `${f.name}:${f.rule}`).sort()).toEqual([
      'prompt:required',
      'width:type',
    ]);
    await expect(c.get('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const { baseUrl } = await target();
    await expect(createClient({ baseUrl, apiKey: 'lime_wrong' }).get('x')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    // A key reused for another input is a 409 that names the job the key made.
    const idempotencyKey = crypto.randomUUID();
    const first = await c.submit(TEXT2IMG, { input: small('first'), idempotencyKey });
    await expect(c.submit(TEXT2IMG, { input: small('second'), idempotencyKey })).rejects.toMatchObject({
      status: 409,
      code: 'conflict',
      jobId: first.job_id,
    });
  },

  'list-cursor': async ({ client }) => {
    const c = await client();
    const ids: string[] = [];
    for (const prompt of ['one', 'two', 'three']) ids.push((await c.submit(TEXT2IMG, { input: small(prompt) })).job_id);
    const pages = [];
    for await (const page of c.list({ serviceId: TEXT2IMG, limit: 2 })) pages.push(page);
    const listed = pages.flatMap((p) => p.jobs.map((j) => j.job_id));
    expect(listed).toEqual(ids.toReversed());
    const rest = [];
    for await (const page of c.list({ serviceId: TEXT2IMG, limit: 2, cursor: pages[0]!.next_cursor! })) rest.push(...page.jobs);
    expect(rest.map((j) => j.job_id)).toEqual([ids[0]]);
  },

  'webhook-verify': async ({ client, target }) => {
    const { accountToken } = await target();
    const c = await client(accountToken ? { apiKey: undefined, token: accountToken } : {});
    const secret = await c.webhookSecret();
    expect(secret).toMatch(/^whsec_/);
    const body = JSON.stringify({ type: 'job.finished', timestamp: new Date().toISOString(), data: { job_id: 'j1', status: 'FINISHED' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': await signWebhook(body, 'msg_1', timestamp, secret),
    };
    expect((await c.webhooks.verify(body, headers, secret)).data.job_id).toBe('j1');
    expect((await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).type).toBe('job.finished');
    await expect(verifyWebhook(body.replace('j1', 'j2'), headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(body, headers, secret, { now: (timestamp + 301) * 1000 })).rejects.toThrow(/tolerance is 300 s/);
    await expect(verifyWebhook(body, { ...headers, 'webhook-signature': undefined }, secret)).rejects.toThrow(/Missing/);
  },

  'webhook-filter': async ({ client, target }) => {
    const { webhookReceiver } = await target();
    if (!webhookReceiver) throw new Error('this runtime gives no webhook receiver');
    const c = await client();
    const hook = await webhookReceiver();
    const jobs = [
      await c.submit(TEXT2IMG, { input: small('start only'), webhook: hook.url, webhookEventsFilter: ['start'] }),
      await c.submit(TEXT2IMG, { input: small('start and end'), webhook: hook.url, webhookEventsFilter: ['start', 'completed'] }),
    ];
    for (const job of jobs) for await (const _ of c.stream(job.job_id));
    for (const start = Date.now(); hook.received.length < 3 && Date.now() - start < 10_000;) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300)); // nothing more comes
    expect(hook.received.map((r) => `${String(r.prompt)}:${r.type}`).sort()).toEqual([
      'start and end:job.finished',
      'start and end:job.started',
      'start only:job.started',
    ]);
    const unknown = await c
      .submit(TEXT2IMG, { input: small('x'), webhook: hook.url, webhookEventsFilter: ['finished' as 'completed'] })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 422 });
  },
};

/** The scenarios of test/sdk/scenarios.json listed for `runtime`, each an `it` against `target`. */
export function clientScenarios(runtime: Runtime, target: () => Promise<Target>) {
  const context: Context = {
    target,
    client: async (options = {}) => {
      const { baseUrl, credential } = await target();
      return createClient({ baseUrl, ...credential, ...options });
    },
  };
  const listed = SCENARIOS.filter((scenario) => scenario.runs.includes(runtime));

  it(`implements every scenario test/sdk/scenarios.json lists for ${runtime}`, () => {
    expect(listed.map((s) => s.id).filter((id) => !(id in IMPLEMENTATIONS))).toEqual([]);
    // A runtime left out says why.
    expect(SCENARIOS.filter((s) => !s.runs.includes(runtime) && !s.not_in?.[runtime]).map((s) => s.id)).toEqual([]);
  });

  for (const scenario of listed) {
    it(`${scenario.id}: ${scenario.expect}`, () => {
      const implementation = IMPLEMENTATIONS[scenario.id];
      if (!implementation) throw new Error(`no implementation of the scenario ${scenario.id}`);
      return implementation(context);
    });
  }
}
