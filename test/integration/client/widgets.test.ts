import { describe, expect, it } from 'vitest';
import { createClient, type JobLogLine } from '@limelight/client';
import { createJobsClient, TOKENS_MISSING_ERROR, type Job } from '../../../src/api';
import { globalServer, rawApi } from '../helpers';
import { keyedUser, lostAnswerFetch } from './fixtures';
import { TEXT2IMG } from '../../client/scenarios';

// The widgets' job API (src/api/jobs.ts) is @limelight/client underneath (docs/sdk.md): what
// only the SDK does shows through the widget calls. And the stream's `log` events (docs/jobs.md,
// "Logs"), given once each even when a connection drops and the server sends the stored lines again.

const server = globalServer();

describe("the widgets' jobs client goes through @limelight/client", () => {
  it('retries a create whose answer a gateway lost, with the same Idempotency-Key: one job, ok for the widget', async () => {
    const { apiKey, token } = await keyedUser(server, 'widgets-sdk');
    // The SDK retries the lost answer; the widgets' own client never retried a request with a body.
    const { fetch: lossy, keys } = lostAnswerFetch();
    const jobs = createJobsClient({ baseURL: server.url, apiKey, fetch: lossy });
    const created = await jobs.create(
      { service_id: TEXT2IMG, input: { prompt: 'once', width: 64, height: 64 } },
      { idempotencyKey: 'widget-k1' },
    );
    expect(created).toMatchObject({ ok: true, status: 200, data: { service_id: TEXT2IMG } });
    expect(keys).toEqual(['widget-k1', 'widget-k1']);
    const { json } = await rawApi(server, 'GET', `/v1/jobs?service_id=${TEXT2IMG}`, { token });
    expect((json.jobs as unknown as Job[]).map((j) => j.job_id)).toEqual([created.ok && created.data.job_id]);
  });

  it("maps the SDK's typed errors to results: 422 with each field, 404, and 'Login first' without a token (nothing sent)", async () => {
    const { apiKey } = await keyedUser(server, 'widgets-sdk-errors');
    const jobs = createJobsClient({ baseURL: server.url, apiKey });
    expect(await jobs.create({ service_id: TEXT2IMG, input: {} })).toMatchObject({
      ok: false,
      status: 422,
      error: 'prompt is required',
      fieldErrors: [{ name: 'prompt', rule: 'required', message: 'prompt is required' }],
    });
    expect(await jobs.get('00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, status: 404 });
    let requests = 0;
    const anonymous = createJobsClient({ baseURL: server.url, fetch: (input, init) => (requests++, fetch(input, init)) });
    expect(await anonymous.list()).toMatchObject({ ok: false, status: 401, error: TOKENS_MISSING_ERROR });
    expect(requests).toBe(0);
  });

  it('estimates a run and pages the list through the SDK', async () => {
    const { apiKey } = await keyedUser(server, 'widgets-sdk-list');
    const jobs = createJobsClient({ baseURL: server.url, apiKey });
    expect(await jobs.estimate(TEXT2IMG, '/generate')).toMatchObject({
      ok: true,
      status: 200,
      data: { service_id: TEXT2IMG, endpoint: '/generate' },
    });
    for (const prompt of ['a', 'b', 'c']) await jobs.create({ service_id: TEXT2IMG, input: { prompt, width: 64, height: 64 } });
    const first = await jobs.list({ limit: 2 });
    if (!first.ok) throw new Error(first.error);
    expect(first.data.jobs.map((j) => j.input.prompt)).toEqual(['c', 'b']);
    const second = await jobs.list({ limit: 2, cursor: first.data.next_cursor! });
    expect(second).toMatchObject({ ok: true, data: { jobs: [{ input: { prompt: 'a' } }], next_cursor: null } });
  });
});

const line = (n: number): JobLogLine => ({ at: `2026-01-01T00:00:0${n}Z`, stream: n % 2 ? 'stdout' : 'stderr', text: `line ${n}` });
const envelope = (status: string) => ({ job_id: 'j1', status, result: null });

/**
 * The stream as the server writes it for a container job: its stored log lines (no event id)
 * before each envelope. The first connection is cut after one envelope; the resumed one gets
 * every stored line again, then the new one, the final envelope, and a line the container wrote
 * just after its answer (the server sends it after the final envelope, then ends the stream).
 */
function loggingStream() {
  const lastEventIds: (string | null)[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    lastEventIds.push(new Headers(init?.headers).get('last-event-id'));
    const log = (n: number) => `event: log\ndata: ${JSON.stringify(line(n))}\n\n`;
    const job = (id: number, status: string) => `event: job\nid: ${id}\ndata: ${JSON.stringify(envelope(status))}\n\n`;
    const first = lastEventIds.length === 1;
    const text = first ? log(1) + log(2) + job(3, 'PROCESSING') : log(1) + log(2) + log(3) + job(4, 'FINISHED') + log(4);
    const bytes = new TextEncoder().encode(text);
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(bytes);
        } else if (first) controller.error(new TypeError('network error: connection reset'));
        else controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, lastEventIds };
}

describe("the stream's log events", () => {
  it('@limelight/client gives each line once through onLog, across a resumed connection and after the final envelope', async () => {
    const stream = loggingStream();
    const client = createClient({ baseUrl: 'https://api.example', apiKey: 'lime_x', fetch: stream.fetch, retry: { baseDelayMs: 1 } });
    const lines: JobLogLine[] = [];
    const statuses: string[] = [];
    for await (const event of client.stream('j1', { onLog: (l) => lines.push(l) })) statuses.push(event.job.status);
    expect(lines).toEqual([line(1), line(2), line(3), line(4)]);
    expect(statuses).toEqual(['PROCESSING', 'FINISHED']);
    expect(stream.lastEventIds).toEqual([null, '3']);
  });

  it("the widgets' subscribe passes them on (onLog) beside the envelopes", async () => {
    const stream = loggingStream();
    const jobs = createJobsClient({ baseURL: 'https://api.example', accessToken: 'token', fetch: stream.fetch });
    const lines: JobLogLine[] = [];
    const seen: string[] = [];
    const final = await jobs.subscribe('j1', { onJob: (job) => seen.push(job.status), onLog: (l) => lines.push(l) }).done;
    expect(final).toMatchObject({ status: 'FINISHED' });
    expect(seen).toEqual(['PROCESSING', 'FINISHED']);
    expect(lines).toEqual([line(1), line(2), line(3), line(4)]);
    expect(stream.lastEventIds).toEqual([null, '3']);
  });
});
