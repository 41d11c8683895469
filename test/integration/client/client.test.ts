import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync, createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, createClient, filePath, retryAfterMs, signWebhook, verifyWebhook, type OutputFile } from '@limelight/client';
import { generateTypes } from '../../../packages/client/src/typegen';
import { globalServer, rawApi } from '../helpers';
import { keyedUser as fixtureUser, lostAnswerFetch } from './fixtures';
import { PNG_1PX, TEXT2IMG } from '../../client/scenarios';

// @limelight/client in Node against the real platform server: what only Node has (Buffer, paths,
// Node streams), retries against a server that fails on purpose, and the type generator on a real
// service document. The shared scenarios (test/sdk/scenarios.json) run in sdk-parity.test.ts.

const server = globalServer();

const keyedUser = (label?: string) => fixtureUser(server, label);

describe('@limelight/client in Node', () => {
  it('uploads Buffers, Node streams, paths and file: URLs, and runs with a file input', async () => {
    const { apiKey } = await keyedUser('sdk-files');
    const c = createClient({ baseUrl: server.url, apiKey });
    const dir = mkdtempSync(path.join(tmpdir(), 'lime-sdk-'));
    const file = path.join(dir, 'pixel.png');
    writeFileSync(file, PNG_1PX);
    for (const input of [
      Buffer.from(PNG_1PX),
      Readable.from([Buffer.from(PNG_1PX)]),
      createReadStream(file),
      filePath(file),
      pathToFileURL(file),
    ]) {
      expect(await c.upload(input)).toMatchObject({ content_type: 'image/png', size: PNG_1PX.length });
    }
    const output = (await c.run('lime-cutout', { endpoint: '/remove', input: { image: Buffer.from(PNG_1PX) } })) as { image: OutputFile };
    expect(output.image.content_type).toMatch(/^image\//);
  });

  it('verifies webhooks exactly as the standardwebhooks library signs them, and the reverse', async () => {
    const secret = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;
    const body = JSON.stringify({ type: 'job.failed', timestamp: new Date().toISOString(), data: { job_id: 'j9' } });
    const now = new Date();
    const theirs = new Webhook(secret).sign('msg_9', now, body);
    const headers = { 'webhook-id': 'msg_9', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': theirs };
    expect((await verifyWebhook(Buffer.from(body), headers, secret)).data.job_id).toBe('j9');
    const ours = await signWebhook(body, 'msg_9', Math.floor(now.getTime() / 1000), secret);
    expect(new Webhook(secret).verify(body, { ...headers, 'webhook-signature': ours })).toMatchObject({ type: 'job.failed' });
  });
});

describe('retries', () => {
  let fake: ReturnType<typeof createServer>;
  let fakeUrl = '';
  const seen: { key: string | undefined; at: number }[] = [];
  beforeAll(async () => {
    fake = createServer((request: IncomingMessage, response) => {
      seen.push({ key: request.headers['idempotency-key'] as string | undefined, at: Date.now() });
      request.resume();
      if (seen.length === 1) {
        response.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' }).end('{"detail":"busy"}');
      } else response.writeHead(201, { 'Content-Type': 'application/json' }).end('{"job_id":"j1","status":"QUEUED"}');
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it('a 503 then 201: the same Idempotency-Key twice, after the Retry-After pause', async () => {
    const job = await createClient({ baseUrl: fakeUrl, apiKey: 'lime_x' }).submit('s', { input: { prompt: 'x' } });
    expect(job.job_id).toBe('j1');
    expect(seen).toHaveLength(2);
    expect(seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('on the real server: an answer lost to a 503 is retried with the same key and one job exists', async () => {
    const { apiKey, token } = await keyedUser('sdk-retry');
    const { fetch: lossy, keys } = lostAnswerFetch();
    const c = createClient({ baseUrl: server.url, apiKey, fetch: lossy });
    const job = await c.submit(TEXT2IMG, { input: { prompt: 'once', width: 64, height: 64 } });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const { json } = await rawApi(server, 'GET', `/v1/jobs?service_id=${TEXT2IMG}`, { token });
    expect((json.jobs as unknown as { job_id: string }[]).map((j) => j.job_id)).toEqual([job.job_id]);
  });

  it('backs off with full jitter and reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(backoffMs(3, { baseDelayMs: 100 }, () => 0.999)).toBe(799);
    expect(backoffMs(20, { maxDelayMs: 8000 }, () => 0.5)).toBe(4000);
    expect(backoffMs(0, {}, () => 0)).toBe(0);
  });
});

describe('types per service', () => {
  it('generates a ServiceTypes map with the input, file inputs, enums and typed output files', async () => {
    const { json } = await rawApi(server, 'GET', `/v1/services/${TEXT2IMG}/openapi.json`);
    const cutout = await rawApi(server, 'GET', '/v1/services/lime-cutout/openapi.json');
    const text = generateTypes({ [TEXT2IMG]: json as never, 'lime-cutout': cutout.json as never });
    expect(text).toContain("declare module '@limelight/client'");
    expect(text).toMatch(/"lime-diffusion-xl": \{\s+\/\*\*[^\n]*\*\/\s+"\/generate": \{\s+input: \{/);
    expect(text).toMatch(/prompt: string;/);
    expect(text).toMatch(/width\?: number;/);
    expect(text).toMatch(/image: OutputFile;/);
    expect(text).toMatch(/image: string \| FileInput;/);
  });
});
