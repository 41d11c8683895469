import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@limelight/client';
import { createProxy, toNodeListener } from '../../../packages/client/src/proxy';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { jobEventsChannel } from '../../../reference-app/server/jobs';
// reaches inside: log webhooks queued as platform.ts wires them into the log writer
import { insertLogWebhooks } from '../../../reference-app/server/jobs/queries';
import { DeploymentLogWriter } from '../../../reference-app/server/hosting';
import { keyedUser } from './fixtures';
import { clientScenarios, TEXT2IMG } from '../../client/scenarios';

// @limelight/client in Node: the shared SDK scenarios (test/sdk/scenarios.json, the same list as
// in Chromium and Python), then credentials from the environment, the webhook event filters beyond
// the scenario (output, logs, the default) and the proxy that keeps the key on the server
// (proxy-browser.test.ts calls it from Chromium). A server of its own: demo runs paced at 50 ms a
// step (a text-to-image run takes about 0.5 s) and webhooks to loopback allowed.

let server: PlatformTestServer;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  server = await startPlatformServer({ env: { JOB_WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '200', LOCAL_DEMO_STEP_MS: '50' } });
}, 60_000);
afterAll(async () => {
  for (const close of closers) await close();
  await server?.close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Delivery {
  type: string;
  prompt: unknown;
  jobId: string;
  logs?: { stream: string; text: string }[];
}

/** A webhook receiver that records each delivery's type, prompt, job and (job.logs) lines. */
async function receiver() {
  const received: Delivery[] = [];
  const url = await listen(
    createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const event = JSON.parse(body) as {
          type: string;
          data: { job_id: string; input: Record<string, unknown>; logs?: Delivery['logs'] };
        };
        received.push({
          type: event.type,
          prompt: event.data.input.prompt ?? event.data.input.messages,
          jobId: event.data.job_id,
          logs: event.data.logs,
        });
        res.writeHead(204).end();
      });
    }),
  );
  return { url: `${url}/hook`, received };
}

const until = async (done: () => boolean, ms = 10_000) => {
  for (const start = Date.now(); !done() && Date.now() - start < ms;) await new Promise((r) => setTimeout(r, 50));
};

describe('@limelight/client in Node: the shared scenarios', () => {
  clientScenarios('node', async () => {
    const { apiKey, token } = await keyedUser(server, 'sdk-scenarios');
    return { baseUrl: server.url, credential: { apiKey }, accountToken: token, webhookReceiver: receiver };
  });
});

describe('credentials from the environment', () => {
  it('reads LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL when neither is given', async () => {
    const { apiKey } = await keyedUser(server, 'parity-env');
    const saved = { ...process.env };
    process.env.LIMELIGHT_API_KEY = apiKey;
    process.env.LIMELIGHT_BASE_URL = server.url;
    try {
      expect(await createClient().estimate(TEXT2IMG)).toMatchObject({ service_id: TEXT2IMG });
    } finally {
      process.env = saved;
    }
    expect(() => createClient()).toThrow(/LIMELIGHT_BASE_URL/);
  });
});

describe('webhook event filters', () => {
  it('sends job.output a few times for a streamed output, and only the end without a filter', async () => {
    const { apiKey } = await keyedUser(server, 'parity-hooks');
    const client = createClient({ baseUrl: server.url, apiKey });
    const hook = await receiver();
    const jobs = [
      await client.submit(TEXT2IMG, { input: { prompt: 'default', width: 64, height: 64 }, webhook: hook.url }),
      await client.submit('lime-chat-8b', {
        input: { messages: [{ role: 'user', content: 'say something long' }], max_tokens: 40 },
        webhook: hook.url,
        webhookEventsFilter: ['output'],
      }),
    ];
    for (const job of jobs) for await (const _ of client.stream(job.job_id));
    await until(() => hook.received.some((r) => r.type === 'job.finished') && hook.received.some((r) => r.type === 'job.output'));
    const outputs = hook.received.filter((r) => r.type === 'job.output');
    const others = hook.received.filter((r) => r.type !== 'job.output').map((r) => `${String(r.prompt)}:${r.type}`);
    expect(others).toEqual(['default:job.finished']);
    // Coalesced: at least one, never one per token.
    expect(outputs.length).toBeGreaterThanOrEqual(1);
    expect(outputs.length).toBeLessThan(40);
  });

  it('sends job.logs with the lines so far when a container writes them, only to jobs that asked for logs', async () => {
    const { apiKey } = await keyedUser(server, 'parity-hooks-logs');
    const client = createClient({ baseUrl: server.url, apiKey });
    const hook = await receiver();
    const input = (prompt: string) => ({ prompt, width: 64, height: 64 });
    const logs = await client.submit(TEXT2IMG, { input: input('logs'), webhook: hook.url, webhookEventsFilter: ['logs'] });
    const ended = await client.submit(TEXT2IMG, { input: input('completed'), webhook: hook.url, webhookEventsFilter: ['completed'] });
    // The lines as the runner stores a container's output (hosting/deploymentLogs.ts).
    const { db } = server.platform.database;
    const writer = new DeploymentLogWriter(db, jobEventsChannel(undefined), (jobIds) => insertLogWebhooks(db, jobIds));
    for (const job of [logs, ended]) {
      writer.add(
        TEXT2IMG,
        { seq: 1, at: new Date().toISOString(), stream: 'stdout', instance: 'c0ffee', text: 'loading weights' },
        job.job_id,
      );
      writer.add(TEXT2IMG, { seq: 2, at: new Date().toISOString(), stream: 'stderr', instance: 'c0ffee', text: 'slow disk' }, job.job_id);
      await writer.jobDone(job.job_id);
    }
    for (const job of [logs, ended]) for await (const _ of client.stream(job.job_id));
    await until(() => hook.received.length >= 2);
    await new Promise((r) => setTimeout(r, 300)); // nothing more comes
    const delivery = hook.received.find((r) => r.type === 'job.logs');
    expect(delivery).toMatchObject({ jobId: logs.job_id, prompt: 'logs' });
    expect(delivery!.logs!.map(({ stream, text }) => `${stream}:${text}`)).toEqual(['stdout:loading weights', 'stderr:slow disk']);
    // One delivery for both lines of the batch; `logs` alone sends no end, `completed` no lines.
    expect(hook.received.map((r) => `${String(r.prompt)}:${r.type}`).sort()).toEqual(['completed:job.finished', 'logs:job.logs']);
  });

  it('refuses a filter without a webhook with 422 (an unknown event: the webhook-filter scenario)', async () => {
    const { apiKey } = await keyedUser(server, 'parity-hooks-bad');
    const client = createClient({ baseUrl: server.url, apiKey });
    const alone = await client.submit(TEXT2IMG, { input: { prompt: 'x' }, webhookEventsFilter: ['start'] }).catch((e: unknown) => e);
    expect(alone).toMatchObject({ status: 422, fields: [{ name: 'webhook_events_filter' }] });
  });
});

describe('@limelight/client/proxy', () => {
  async function proxied() {
    const { apiKey } = await keyedUser(server, 'parity-proxy');
    const proxy = createProxy({ apiKey, baseUrl: server.url, prefix: '/api/limelight', allowedOrigins: ['http://app.example'] });
    const origin = await listen(createServer(toNodeListener(proxy.handle)));
    return { origin, base: `${origin}/api/limelight` };
  }

  it('runs, streams and uploads for a client that holds no key', async () => {
    const { base } = await proxied();
    const client = createClient({ baseUrl: base });
    const statuses: string[] = [];
    const output = (await client.run(TEXT2IMG, {
      input: { prompt: 'through the proxy', width: 64, height: 64 },
      onEvent: (e) => statuses.push(e.job.status),
    })) as { image: { content_type: string } };
    expect(output.image.content_type).toBe('image/png');
    expect(statuses.at(-1)).toBe('FINISHED');
    expect(await client.upload(new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }))).toMatchObject({ size: 3 });
  });

  it('refuses paths it does not allow, foreign origins and a preflight from them; answers an allowed origin', async () => {
    const { base } = await proxied();
    const status = async (path: string, init: RequestInit = {}) => (await fetch(`${base}${path}`, init)).status;
    expect(await status('/v1/jobs')).toBe(403); // the list of every job of the key's account
    expect(await status('/v1/jobs/webhook-secret')).toBe(403);
    expect(await status('/v1/jobs/x/../../profile')).toBe(403);
    expect(await status('/v1/api-keys', { method: 'POST' })).toBe(403);
    expect(await status('/v1/jobs/estimate?service_id=lime-diffusion-xl', { headers: { origin: 'http://evil.example' } })).toBe(403);
    const preflight = await fetch(`${base}/v1/jobs`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.example');
    const allowed = await fetch(`${base}/v1/jobs/estimate?service_id=${TEXT2IMG}`, { headers: { origin: 'http://app.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(await status('/v1/jobs', { method: 'OPTIONS', headers: { origin: 'http://evil.example' } })).toBe(403);
  });
});
