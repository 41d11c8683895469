import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { httpServiceOf, runner, untilFinal } from './fixtures';

// At-least-once delivery (docs/jobs.md, "Delivered at least once"): every request of a run to a
// publisher's service names the job (Idempotency-Key) and the delivery (Limelight-Attempt), and
// a job whose worker lost its lease is delivered again with the next attempt number.

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A real HTTP service that records each request's headers; the first `hang` requests never answer. */
async function recordingService(hang: number) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    req.resume();
    seen.push(req.headers);
    if (seen.length <= hang) return; // held open: the platform's worker loses the job meanwhile
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.closeAllConnections() ?? server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

// One server for the file (a start costs about 5 CPU seconds): each test has its own user,
// service and job, so neither sees the other's.
let shared: Promise<PlatformTestServer> | undefined;
const start = () => (shared ??= startPlatformServer());
// Started within the hook's limit, not the first test's (a start took over 20 s at load 25).
beforeAll(async () => void (await start()));
afterAll(async () => (await shared)?.close());

async function until(check: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('delivery to HTTP services', () => {
  it('sends Idempotency-Key (the job id) and Limelight-Attempt 1 with the first delivery', async () => {
    const service = await recordingService(0);
    const server = await start();
    const user = await runner(server, 'delivery');
    const serviceId = await httpServiceOf(server, user.userId, service.url);
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: serviceId, input: { prompt: 'hi' } },
    });
    expect(created.status).toBe(201);
    const job = await untilFinal(server, user.token, String(created.json.job_id));
    expect(job.status).toBe('FINISHED');
    expect(service.seen).toHaveLength(1);
    expect(service.seen[0]!['idempotency-key']).toBe(job.job_id);
    expect(service.seen[0]!['limelight-attempt']).toBe('1');
  });

  it('redelivers a job whose lease was lost with the same key and the next attempt number', async () => {
    const service = await recordingService(1);
    const server = await start();
    const db = server.platform.database.db;
    const user = await runner(server, 'redelivery');
    const serviceId = await httpServiceOf(server, user.userId, service.url);
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: serviceId, input: { prompt: 'hi' } },
    });
    const jobId = String(created.json.job_id);
    await until(() => service.seen.length === 1, 'the first delivery');
    // The lease runs out as when the worker's process stalls or dies: recovery requeues the job.
    await sql`UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = ${jobId}`.execute(db);
    await until(() => service.seen.length === 2, 'the redelivery');
    const job = await untilFinal(server, user.token, jobId);
    expect(job.status).toBe('FINISHED');
    expect(service.seen.map((headers) => headers['idempotency-key'])).toEqual([jobId, jobId]);
    expect(service.seen.map((headers) => headers['limelight-attempt'])).toEqual(['1', '2']);
  }, 40_000);
});
