import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { httpServiceOf, runner, untilFinal } from './fixtures';

// A service's answer carrying U+0000 (issue 35, finding 7): PostgreSQL stores no NUL in jsonb or
// text, so before, the job's end could not be written, the job was delivered again and ended
// worker_lost. A result with a NUL fails the job once as service_error; a message or error text
// keeps its words without the NUL.

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A service answering every request with `status` and `body` (JSON); counts the requests. */
async function answering(status: number, body: string) {
  const seen = { count: 0 };
  const server = createServer((req, res) => {
    req.resume();
    seen.count += 1;
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.closeAllConnections() ?? server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

// One server for the file (a start costs about 5 CPU seconds): each run has its own user,
// service and job, so neither test sees the other's.
let shared: Promise<PlatformTestServer> | undefined;
// Started within the hook's limit, not the first test's (a start took over 20 s at load 25).
beforeAll(async () => void (await (shared ??= startPlatformServer())));
afterAll(async () => (await shared)?.close());

async function runOnce(serviceUrl: string) {
  const server = await (shared ??= startPlatformServer());
  const user = await runner(server, 'nul');
  const serviceId = await httpServiceOf(server, user.userId, serviceUrl);
  const created = await rawApi(server, 'POST', '/v1/jobs', { token: user.token, body: { service_id: serviceId, input: { prompt: 'hi' } } });
  expect(created.status).toBe(201);
  const job = await untilFinal(server, user.token, String(created.json.job_id));
  const { rows } = await sql<{ attempts: number }>`SELECT attempts FROM jobs WHERE id = ${job.job_id}`.execute(server.platform.database.db);
  return { job, attempts: rows[0]!.attempts };
}

describe('a NUL in a service’s answer', () => {
  it('a result with U+0000 fails the job once as service_error, never run twice', async () => {
    const service = await answering(200, '{"text":"before\\u0000after"}');
    const { job, attempts } = await runOnce(service.url);
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatchObject({ code: 'service_error', message: expect.stringMatching(/NUL/) });
    expect(attempts).toBe(1);
    expect(service.seen.count).toBe(1);
  }, 60_000);

  it('an error text with U+0000 is stored without it', async () => {
    const service = await answering(500, '{"detail":"broken\\u0000model"}');
    const { job, attempts } = await runOnce(service.url);
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatchObject({ code: 'service_error', message: 'The service answered 500: brokenmodel' });
    expect(attempts).toBe(1);
  }, 60_000);
});
