import { Webhook } from 'standardwebhooks';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api';
import { PUBLISHER_SHARE } from '@limelight/rules';
import { creditsForRun } from '../../../src/run';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { MIN_FAILED_SECONDS } from '../../../reference-app/server/jobs';
import { apiClients, PUBLISHER, PUBLISHER_ID, rawApi, signedIn } from '../helpers';
import { runner, testRuntimes, TEXT2IMG, TINY_PNG } from './fixtures';

// The job API (docs/jobs.md) against a real platform server with PGlite and the test runtime:
// envelope and status rules, validation (422 per field before queueing or charging), cancel,
// time limit, SSE with resume, files, idempotency, metering, ownership and webhooks.

let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({ runtimes: testRuntimes, env: { JOB_WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '200' } });
});
afterAll(() => server?.close());

const create = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  rawApi(server, 'POST', '/v1/jobs', { token, body, headers });

async function untilFinal(token: string, id: string): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const { json } = await rawApi(server, 'GET', `/v1/jobs/${id}`, { token });
    if (['FINISHED', 'FAILED', 'TIMEOUT', 'CANCELLED'].includes(String(json.status))) return json as unknown as Job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} never ended`);
}

describe('POST /v1/jobs', () => {
  it('answers 201 with the full envelope, QUEUED, and the job then FINISHES with metrics and cost', async () => {
    const { token } = await runner(server);
    const { status, json, headers } = await create(token, { service_id: TEXT2IMG, endpoint: '/generate', input: { prompt: 'a cat' } });
    expect(status).toBe(201);
    expect(headers.get('location')).toBe(`/v1/jobs/${json.job_id}`);
    expect(Object.keys(json).sort()).toEqual(
      [
        'job_id',
        'service_id',
        'endpoint',
        'status',
        'progress',
        'message',
        'input',
        'result',
        'error',
        'runtime',
        'queue',
        'metrics',
        'created_at',
        'started_at',
        'finished_at',
        'output_expires_at',
        'links',
      ].sort(),
    );
    expect(json).toMatchObject({
      service_id: TEXT2IMG,
      endpoint: '/generate',
      runtime: 'test',
      // Defaults of omitted parameters are filled in.
      input: { prompt: 'a cat', width: 1024, height: 1024, num_inference_steps: 30 },
      links: {
        self: `${server.url}/v1/jobs/${json.job_id}`,
        cancel: `${server.url}/v1/jobs/${json.job_id}/cancel`,
        stream: `${server.url}/v1/jobs/${json.job_id}/stream`,
      },
    });
    expect(['QUEUED', 'PROCESSING', 'FINISHED']).toContain(json.status);
    const done = await untilFinal(token, String(json.job_id));
    expect(done).toMatchObject({ status: 'FINISHED', progress: 1, result: { echo: 'a cat' }, error: null, queue: null });
    expect(done.metrics.queue_ms).toBeGreaterThanOrEqual(0);
    expect(done.metrics.run_ms).toBeGreaterThanOrEqual(0);
    expect(done.metrics.cost_credits).toBeGreaterThan(0);
    expect(new Date(done.output_expires_at!).getTime() - new Date(done.finished_at!).getTime()).toBe(7 * 24 * 3600_000);
    // Results are never deleted on first read.
    expect((await rawApi(server, 'GET', `/v1/jobs/${json.job_id}`, { token })).json.result).toEqual({ echo: 'a cat' });
  });

  it('with Prefer: wait=N answers when the job ends', async () => {
    const { token } = await runner(server);
    const { status, json, headers } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'sleep:200' } }, { Prefer: 'wait=10' });
    expect(status).toBe(201);
    expect(headers.get('preference-applied')).toBe('wait=10');
    expect(json).toMatchObject({ status: 'FINISHED', result: { echo: 'sleep:200' } });
  });

  it('caps Prefer: wait at 60 s and answers after N s when the job is still running', async () => {
    const { token } = await runner(server);
    const long = await create(token, { service_id: TEXT2IMG, input: { prompt: 'sleep:5000' } }, { Prefer: 'wait=1' });
    expect(long.json.status).not.toBe('FINISHED');
    const capped = await create(token, { service_id: TEXT2IMG, input: { prompt: 'x' } }, { Prefer: 'wait=600' });
    expect(capped.headers.get('preference-applied')).toBe('wait=60');
    await rawApi(server, 'POST', `/v1/jobs/${long.json.job_id}/cancel`, { token });
  });

  it('refuses bad input with 422, one entry per field, and queues and charges nothing', async () => {
    const { token, payment } = await runner(server);
    const { status, json } = await create(token, {
      service_id: TEXT2IMG,
      endpoint: '/generate',
      input: { width: 'wide', colour: 'red' },
    });
    expect(status).toBe(422);
    expect(json.errors).toEqual([
      { name: 'prompt', rule: 'required', message: 'prompt is required' },
      { name: 'width', rule: 'type', message: 'width must be a whole number' },
      { name: 'colour', rule: 'unknown', message: 'colour is not a parameter of this endpoint' },
    ]);
    expect(json.detail).toBe('prompt is required; width must be a whole number; colour is not a parameter of this endpoint');
    expect((await rawApi(server, 'GET', '/v1/jobs', { token })).json.jobs).toEqual([]);
    expect(await payment.balance()).toMatchObject({ data: { balance: 500 } });
  });

  it('gives the client the field errors through ApiFailure.fieldErrors', async () => {
    const { jobs } = await runner(server);
    const result = await jobs.create({ service_id: TEXT2IMG, input: {} });
    expect(result).toMatchObject({ ok: false, status: 422, fieldErrors: [{ name: 'prompt', rule: 'required' }] });
  });

  it('answers 404 for an unknown service or endpoint, 401 without credentials, 400 for broken JSON', async () => {
    const { token } = await runner(server);
    expect(await create(token, { service_id: 'no-such-service', input: {} })).toMatchObject({
      status: 404,
      json: { detail: 'Service no-such-service not found' },
    });
    expect(await create(token, { service_id: TEXT2IMG, endpoint: '/nope', input: {} })).toMatchObject({
      status: 404,
      json: { detail: `Service ${TEXT2IMG} has no endpoint /nope; it has /generate` },
    });
    expect((await rawApi(server, 'POST', '/v1/jobs', { body: { service_id: TEXT2IMG, input: {} } })).status).toBe(401);
    expect((await rawApi(server, 'POST', '/v1/jobs', { token, rawBody: '{"service_id":' })).status).toBe(400);
  });

  it('with an Idempotency-Key returns the same job for a retried create and charges once', async () => {
    const { token, payment } = await runner(server);
    const body = { service_id: TEXT2IMG, input: { prompt: 'once' } };
    const first = await create(token, body, { 'Idempotency-Key': 'k-1' });
    const again = await create(token, body, { 'Idempotency-Key': 'k-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.job_id).toBe(first.json.job_id);
    const other = await create(token, { ...body, input: { prompt: 'different' } }, { 'Idempotency-Key': 'k-1' });
    expect(other.status).toBe(409);
    const done = await untilFinal(token, String(first.json.job_id));
    const transactions = await payment.transactions();
    expect(transactions.ok && transactions.data.filter((t) => t.kind === 'usage').map((t) => t.amount)).toEqual([
      -done.metrics.cost_credits!,
    ]);
  });

  it('answers 402 with a link to billing when the credits are gone, and queues nothing', async () => {
    const { token, userId } = await runner(server);
    await server.platform.database.db
      .insertInto('credit_ledger')
      .values({ user_id: userId, amount: -500, kind: 'adjustment', description: 'test: spend the bonus' })
      .execute();
    const { status, json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'x' } });
    expect(status).toBe(402);
    expect(json.detail).toMatch(
      /^Not enough credits: this run reserves up to [\d.]+ credits \(its time limit of 120 s\) and 0 of your credits are available\. Buy credits at http:\/\/127\.0\.0\.1:\d+\/account\/billing$/,
    );
    expect((await rawApi(server, 'GET', '/v1/jobs', { token })).json.jobs).toEqual([]);
  });
});

describe('job lifecycle', () => {
  it('FAILED carries the runtime error and is charged for the slot time, at least the minimum', async () => {
    const { token } = await runner(server);
    const { json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'fail' } });
    const done = await untilFinal(token, String(json.job_id));
    expect(done).toMatchObject({ status: 'FAILED', error: { code: 'bad_prompt', message: 'The test runtime refuses "fail"' } });
    const row = await server.platform.database.db
      .selectFrom('jobs')
      .select(['price_per_s_usd', 'gpu_seconds'])
      .where('id', '=', done.job_id)
      .executeTakeFirstOrThrow();
    const seconds = Math.max(MIN_FAILED_SECONDS, Number(row.gpu_seconds));
    expect(done.metrics.cost_credits).toBe(creditsForRun(seconds, Number(row.price_per_s_usd)));
  });

  it('cancel ends a running job as CANCELLED, and a final job is answered unchanged', async () => {
    const { token } = await runner(server);
    const { json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'sleep:30000' } }, { Prefer: 'wait=0' });
    for (let i = 0; i < 100; i++) {
      if ((await rawApi(server, 'GET', `/v1/jobs/${json.job_id}`, { token })).json.status === 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    const cancelled = await rawApi(server, 'POST', `/v1/jobs/${json.job_id}/cancel`, { token });
    expect(cancelled).toMatchObject({ status: 200, json: { status: 'CANCELLED', error: null } });
    const again = await rawApi(server, 'POST', `/v1/jobs/${json.job_id}/cancel`, { token });
    expect(again.json).toEqual(cancelled.json);
  });

  it('a runtime that ignores its signal still ends as TIMEOUT at the endpoint time limit', async () => {
    const limited = await startPlatformServer({ runtimes: testRuntimes, env: { JOB_TIME_LIMIT_SECONDS: '1' } });
    try {
      const { token } = await runner(limited);
      const { json } = await rawApi(limited, 'POST', '/v1/jobs', {
        token,
        body: { service_id: TEXT2IMG, input: { prompt: 'hang' } },
        headers: { Prefer: 'wait=10' },
      });
      expect(json).toMatchObject({
        status: 'TIMEOUT',
        error: { code: 'timeout', message: "The run took longer than the endpoint's time limit of 1 s" },
      });
      expect((json as unknown as Job).metrics.gpu_seconds).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it("another user's job is 404 for get, cancel and stream", async () => {
    const owner = await runner(server);
    const stranger = await runner(server);
    const { json } = await create(owner.token, { service_id: TEXT2IMG, input: { prompt: 'mine' } });
    for (const [method, path] of [
      ['GET', `/v1/jobs/${json.job_id}`],
      ['POST', `/v1/jobs/${json.job_id}/cancel`],
      ['GET', `/v1/jobs/${json.job_id}/stream`],
    ] as const) {
      expect(await rawApi(server, method, path, { token: stranger.token })).toMatchObject({
        status: 404,
        json: { detail: `Job ${json.job_id} not found` },
      });
    }
    expect((await rawApi(server, 'GET', '/v1/jobs/not-a-uuid', { token: owner.token })).status).toBe(404);
  });

  it('lists the caller’s jobs newest first, by service, with a cursor', async () => {
    const { token, jobs } = await runner(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await create(token, { service_id: TEXT2IMG, input: { prompt: `n${i}` } })).json.job_id));
    const first = await jobs.list({ limit: 2 });
    if (!first.ok) throw new Error(first.error);
    expect(first.data.jobs.map((j) => j.job_id)).toEqual([ids[4], ids[3]]);
    const second = await jobs.list({ limit: 2, cursor: first.data.next_cursor! });
    const third = second.ok ? await jobs.list({ limit: 2, cursor: second.data.next_cursor! }) : second;
    expect(second.ok && second.data.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
    expect(third.ok && third.data).toMatchObject({ jobs: [{ job_id: ids[0] }], next_cursor: null });
    expect(await jobs.list({ service_id: 'other-service' })).toMatchObject({ ok: true, data: { jobs: [] } });
    expect((await rawApi(server, 'GET', '/v1/jobs?cursor=bogus', { token })).status).toBe(422);
  });
});

describe('GET /v1/jobs/{id}/stream', () => {
  it('sends the envelope with an id per change, streamed text as it grows, and ends after the final status', async () => {
    const { jobs } = await runner(server);
    const created = await jobs.create({ service_id: TEXT2IMG, input: { prompt: 'stream:one two three four' } });
    if (!created.ok) throw new Error(created.error);
    const seen: Job[] = [];
    const final = await jobs.subscribe(created.data.job_id, { onJob: (job) => seen.push(job) }).done;
    expect(final).toMatchObject({ status: 'FINISHED', result: { text: 'one two three four' } });
    const texts = seen.filter((j) => j.status === 'PROCESSING' && j.result).map((j) => (j.result as { text: string }).text);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => 'one two three four '.startsWith(t))).toBe(true);
  });

  it('resumes after Last-Event-ID: a reconnect only gets what changed since', async () => {
    const { token } = await runner(server);
    const { json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'quick' } }, { Prefer: 'wait=10' });
    const stream = async (lastEventId?: string) => {
      const response = await fetch(`${server.url}/v1/jobs/${json.job_id}/stream`, {
        headers: { Authorization: `Bearer ${token}`, ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      return response.text();
    };
    const full = await stream();
    const ids = [...full.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]);
    expect(ids.length).toBe(1);
    expect(full).toMatch(/^event: job$/m);
    expect(full).toContain('"status":"FINISHED"');
    // Resuming at the last id of a finished job: nothing missed, the stream ends at once.
    expect(await stream(ids[0])).toBe('');
    expect(await stream(String(Number(ids[0]) - 1))).toContain('"status":"FINISHED"');
  });
});

describe('files', () => {
  it('POST /v1/files stores one file; media outputs come back as {url, content_type, size}', async () => {
    const { token, jobs } = await runner(server);
    const uploaded = await jobs.uploadFile(new Blob([TINY_PNG], { type: 'image/png' }), 'dot.png');
    if (!uploaded.ok) throw new Error(uploaded.error);
    expect(uploaded).toMatchObject({ status: 201, data: { content_type: 'image/png', size: TINY_PNG.length } });
    const fetched = await fetch(uploaded.data.url);
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(fetched.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(TINY_PNG);

    const { json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'image' } }, { Prefer: 'wait=10' });
    expect(json).toMatchObject({ status: 'FINISHED', result: { image: { content_type: 'image/png', size: TINY_PNG.length } } });
    const image = (json.result as { image: { url: string } }).image;
    expect(Buffer.from(await (await fetch(image.url)).arrayBuffer())).toEqual(TINY_PNG);
  });

  it('refuses other types with 415, oversize with 413, and a missing file with 422', async () => {
    const small = await startPlatformServer({ env: { JOB_MAX_UPLOAD_BYTES: '100' } });
    try {
      const { jobs } = await runner(small);
      expect(await jobs.uploadFile(new Blob(['<svg/>'], { type: 'image/svg+xml' }), 'x.svg')).toMatchObject({
        status: 415,
        error: expect.stringMatching(/^file: type image\/svg\+xml is not accepted; accepted: image\/png/),
      });
      expect(await jobs.uploadFile(new Blob([Buffer.alloc(200)], { type: 'image/png' }), 'big.png')).toMatchObject({
        status: 413,
        error: expect.stringMatching(/^file: .*the limit is 100 bytes$/),
      });
      const { token } = await runner(small);
      const form = new FormData();
      form.append('other', 'x');
      const response = await fetch(`${small.url}/v1/files`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
      expect(response.status).toBe(422);
    } finally {
      await small.close();
    }
  });

  it('a file input must be a stored file of this site or a data: URI (422 otherwise)', async () => {
    const { token, jobs } = await runner(server);
    const service = await publishedFileService();
    const uploaded = await jobs.uploadFile(new Blob([TINY_PNG], { type: 'image/png' }), 'dot.png');
    if (!uploaded.ok) throw new Error(uploaded.error);
    const run = (image: string) => create(token, { service_id: service, input: { prompt: 'x', image } }, { Prefer: 'wait=10' });
    expect((await run(uploaded.data.url)).json).toMatchObject({ status: 'FINISHED' });
    expect((await run(`data:image/png;base64,${TINY_PNG.toString('base64')}`)).json).toMatchObject({ status: 'FINISHED' });
    const missing = await run(`${server.url}/media/files/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(missing.status).toBe(422);
    expect(missing.json.errors).toEqual([
      {
        name: 'image',
        rule: 'file',
        message: `image must be a file uploaded with POST /v1/files (or a data: URI); ${server.url}/media/files/AAAAAAAAAAAAAAAAAAAAAA is not one or has expired`,
      },
    ]);
    expect((await run('https://elsewhere.example/cat.png')).json.errors).toMatchObject([{ name: 'image', rule: 'file' }]);
  });
});

/**
 * A public service of the seeded publisher with a file parameter, made in this test server's
 * database (the seed's own endpoints belong to the catalogue's tests).
 */
async function publishedFileService(): Promise<string> {
  const db = server.platform.database.db;
  const endpoints = [
    {
      method: 'POST',
      path: '/edit',
      parameters: [
        { name: 'prompt', type: 'string', required: true },
        { name: 'image', type: 'file', required: false },
      ],
    },
  ];
  await db
    .updateTable('models')
    .set({ created_by: PUBLISHER_ID, is_public: true, endpoints: JSON.stringify(endpoints) })
    .where('id', '=', 'pixel-forge')
    .execute();
  return 'pixel-forge';
}

describe('metering', () => {
  it('charges gpu_seconds × GPU price × 92 credits/USD in the ledger and credits the publisher 30 % of public runs', async () => {
    const { token, payment } = await runner(server);
    const publisher = await signedIn(server, PUBLISHER);
    const publisherPayment = apiClients(server, publisher.session.access_token).payment;
    const before = await publisherPayment.balance();
    const db = server.platform.database.db;
    const service = await publishedFileService();
    const { json } = await create(token, { service_id: service, input: { prompt: 'paid' } }, { Prefer: 'wait=10' });
    const job = json as unknown as Job;
    expect(job.status).toBe('FINISHED');
    const row = await db
      .selectFrom('jobs')
      .select(['price_per_s_usd', 'gpu_seconds'])
      .where('id', '=', job.job_id)
      .executeTakeFirstOrThrow();
    expect(job.metrics.cost_credits).toBe(creditsForRun(Number(row.gpu_seconds), Number(row.price_per_s_usd)));
    const ledger = await db
      .selectFrom('credit_ledger')
      .select(['user_id', 'amount', 'kind'])
      .where('reference', 'like', `job:${job.job_id}%`)
      .execute();
    // The publisher's share is rounded down to 4 decimals; a share that rounds to 0 writes no row.
    const earning = Math.floor(job.metrics.cost_credits! * PUBLISHER_SHARE * 10_000 + 1e-9) / 10_000;
    const expected = [
      { user_id: expect.any(String), amount: -job.metrics.cost_credits!, kind: 'usage' },
      ...(earning > 0 ? [{ user_id: publisher.user.id, amount: earning, kind: 'earning' }] : []),
    ];
    expect(ledger).toHaveLength(expected.length);
    expect(ledger).toEqual(expect.arrayContaining(expected));
    expect(await payment.balance()).toMatchObject({ data: { balance: 500 - job.metrics.cost_credits! } });
    const after = await publisherPayment.balance();
    expect(after.ok && before.ok && after.data.balance - before.data.balance).toBeCloseTo(earning, 4);
  });

  it('counts real runs in monthly_api_calls', async () => {
    const { token } = await runner(server);
    const statsBefore = await rawApi(server, 'GET', '/v1/profile/usage_statistics', { token });
    const callsOf = (json: Record<string, unknown>) =>
      (json.monthly_api_calls as Array<{ calls: number }>).reduce((sum, m) => sum + m.calls, 0);
    await create(token, { service_id: TEXT2IMG, input: { prompt: 'count me' } }, { Prefer: 'wait=10' });
    const statsAfter = await rawApi(server, 'GET', '/v1/profile/usage_statistics', { token });
    expect(callsOf(statsAfter.json) - callsOf(statsBefore.json)).toBe(1);
  });
});

describe('webhooks', () => {
  it('POSTs the final envelope signed with Standard Webhooks headers that verify with the user’s secret', async () => {
    const received: Array<{ headers: Record<string, string>; body: string }> = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.statusCode = received.length === 1 ? 500 : 204; // the first attempt fails: retried
        res.end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const { token } = await runner(server);
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      const { json } = await create(token, { service_id: TEXT2IMG, input: { prompt: 'hooked' }, webhook: url }, { Prefer: 'wait=10' });
      expect(json.status).toBe('FINISHED');
      for (let i = 0; i < 200 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect(received.length).toBe(2);
      const { secret } = (await rawApi(server, 'GET', '/v1/jobs/webhook-secret', { token })).json as unknown as { secret: string };
      expect(secret).toMatch(/^whsec_/);
      const last = received[1]!;
      expect(last.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
      const payload = new Webhook(secret).verify(last.body, last.headers) as { type: string; data: Job };
      expect(payload).toMatchObject({
        type: 'job.finished',
        data: { job_id: json.job_id, status: 'FINISHED', result: { echo: 'hooked' } },
      });
    } finally {
      hook.close();
    }
  }, 30_000);

  it('refuses webhook URLs on private networks unless allowed (422 naming the field and the setting)', async () => {
    const strict = await startPlatformServer({ runtimes: testRuntimes });
    try {
      const { token } = await runner(strict);
      const { status, json } = await rawApi(strict, 'POST', '/v1/jobs', {
        token,
        body: { service_id: TEXT2IMG, input: { prompt: 'x' }, webhook: 'http://127.0.0.1:9/hook' },
      });
      expect(status).toBe(422);
      expect(json.errors).toEqual([
        {
          name: 'webhook',
          rule: 'url',
          message:
            'The host 127.0.0.1 resolves to a private address (127.0.0.1); only public addresses are allowed (in development, JOB_WEBHOOK_ALLOW_PRIVATE=true allows them)',
        },
      ]);
    } finally {
      await strict.close();
    }
  });

  // Issue 35: the own-address rule took the public URL's port only. Behind a proxy the public URL
  // names another host and port, and with private addresses allowed a webhook to the port the
  // server really listens on called the platform itself.
  it('refuses the port the platform really listens on, even with private addresses allowed and a public URL elsewhere', async () => {
    const proxied = await startPlatformServer({
      runtimes: testRuntimes,
      env: { JOB_WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_URL: 'https://limelight.example' },
    });
    try {
      // The seeded publisher: a new account's confirmation link would point at the public URL.
      const token = (await signedIn(proxied, PUBLISHER)).session.access_token;
      const { status, json } = await rawApi(proxied, 'POST', '/v1/jobs', {
        token,
        body: { service_id: TEXT2IMG, input: { prompt: 'x' }, webhook: `${proxied.url}/dev/mailbox` },
      });
      expect(status).toBe(422);
      expect(json.errors).toEqual([
        {
          name: 'webhook',
          rule: 'url',
          message: `${new URL(proxied.url).host} is this platform's own address; the platform does not call itself or its container engine`,
        },
      ]);
    } finally {
      await proxied.close();
    }
  });
});

describe('/v1/openapi.json', () => {
  it('describes the job API', async () => {
    const { json } = await rawApi(server, 'GET', '/v1/openapi.json');
    const paths = Object.keys(json.paths as object);
    expect(paths).toEqual(expect.arrayContaining(['/jobs', '/jobs/{job_id}', '/jobs/{job_id}/cancel', '/jobs/{job_id}/stream', '/files']));
  });
});
