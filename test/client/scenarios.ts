import { expect, it } from 'vitest';
import {
  createClient,
  JobWaitError,
  OutputFile,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
  type ClientOptions,
} from '@limelight/client';

// @limelight/client against the real platform server, the same in Node (test/unit/client) and
// in Chromium (test/component/client): run, stream resume, abort, uploads, errors, webhooks.
// Each runtime adds what only it has (Node paths and streams, a fake flaky server).

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

export function clientScenarios(target: () => Promise<Target>) {
  const client = async (options: Partial<ClientOptions> = {}) => {
    const { baseUrl, credential } = await target();
    return createClient({ baseUrl, ...credential, ...options });
  };

  it('runs a text-to-image service and gives the image as an OutputFile with url(), blob() and stream()', async () => {
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
  });

  it('resumes a dropped stream with Last-Event-ID and loses no event', async () => {
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
  });

  it('keeps the job id when waiting is aborted or times out, and the job goes on', async () => {
    const c = await client();
    const controller = new AbortController();
    const aborted = await c
      .run(TEXT2IMG, {
        input: { prompt: 'aborted wait', num_inference_steps: 150 },
        wait: 0,
        signal: controller.signal,
        onJob: () => controller.abort(),
      })
      .catch((error: unknown) => error);
    expect(aborted).toBeInstanceOf(JobWaitError);
    expect((aborted as JobWaitError).name).toBe('AbortError');
    const jobId = (aborted as JobWaitError).jobId;
    expect((await c.get(jobId)).job_id).toBe(jobId);
    const timedOut = await c
      .run(TEXT2IMG, { input: { prompt: 'slow', num_inference_steps: 150 }, wait: 0, timeout: 50 })
      .catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ name: 'TimeoutError', reason: 'timeout' });
    expect((await c.cancel((timedOut as JobWaitError).jobId)).status).toBe('CANCELLED');
    const before = new AbortController();
    before.abort();
    await expect(c.get(jobId, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('uploads files given as Blob, File, bytes and a ReadableStream', async () => {
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
  });

  it('answers typed errors: 422 with each bad field, 404, 401', async () => {
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
  });

  it('lists jobs page by page', async () => {
    const c = await client();
    for (const prompt of ['one', 'two', 'three']) await c.submit(TEXT2IMG, { input: { prompt, width: 64, height: 64 } });
    const pages = [];
    for await (const page of c.list({ serviceId: TEXT2IMG, limit: 2 })) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    const ids = pages.flatMap((p) => p.jobs.map((j) => j.job_id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(3);
  });

  it('verifies webhooks from a string or bytes with the account secret; tampered and stale ones fail', async () => {
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
  });
}
