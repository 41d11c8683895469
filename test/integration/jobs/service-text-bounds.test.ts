import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../../src/api';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { CUT_MARK, MESSAGE_MAX_CHARS } from '../../../reference-app/server/runtimes';
import { rawApi } from '../helpers';
import { httpServiceOf, runner, untilFinal } from './fixtures';

// Text a service reports is bounded where the platform receives it (issue 47, finding 4;
// docs/jobs.md, "Text from services"). Before, a job-style service's 10 MB progress `message`
// was stored in the job and sent whole to every caller: the job, the list and every event of the
// job's stream. A real HTTP service reports it here, through the real job API.

const MB = 1024 * 1024;

const closing: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

async function listening(server: ReturnType<typeof createServer>) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.closeAllConnections() ?? server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A job-style service: the run answers "processing" with a 10 MB message; its status URL answers
 * "processing" (no message) until `finish()`, then "succeeded".
 */
async function hugeProgressService() {
  let finished = false;
  const message = `Loading weights ${'m'.repeat(10 * MB)}`;
  const server = createServer((req, res) => {
    req.resume();
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!req.url?.startsWith('/status')) return json({ id: 'j1', status: 'processing', progress: 0.5, message });
    json(finished ? { id: 'j1', status: 'succeeded', output: { done: true } } : { id: 'j1', status: 'processing' });
  });
  return { url: await listening(server), finish: () => void (finished = true) };
}

// One server for the file (a start costs about 5 CPU seconds).
let shared: Promise<PlatformTestServer> | undefined;
beforeAll(async () => void (await (shared ??= startPlatformServer())));
afterAll(async () => (await shared)?.close());

const bounded = `Loading weights ${'m'.repeat(MESSAGE_MAX_CHARS - CUT_MARK.length - 'Loading weights '.length)}${CUT_MARK}`;

/** The `job` events of a stream's text. */
const jobEvents = (text: string): Job[] =>
  [...text.matchAll(/^event: job\n(?:id: \d+\n)?data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as Job);

describe('text a service reports', () => {
  it('a 10 MB progress message is stored and sent cut to its bound: job, list and stream', async () => {
    const server = await (shared ??= startPlatformServer());
    const service = await hugeProgressService();
    const user = await runner(server, 'huge-progress');
    const serviceId = await httpServiceOf(server, user.userId, service.url);
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: serviceId, input: { prompt: 'hi' } },
    });
    expect(created.status).toBe(201);
    const id = String(created.json.job_id);
    const streamed = fetch(`${server.url}/v1/jobs/${id}/stream`, { headers: { Authorization: `Bearer ${user.token}` } }).then((r) =>
      r.text(),
    );

    // While it runs: the job as its owner reads it.
    let running: Record<string, unknown> | undefined;
    for (let i = 0; i < 400 && !running; i += 1) {
      const { json } = await rawApi(server, 'GET', `/v1/jobs/${id}`, { token: user.token });
      if (json.status === 'PROCESSING' && String(json.message).startsWith('Loading')) running = json;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(running?.message).toBe(bounded);
    const listed = await rawApi(server, 'GET', `/v1/jobs?service_id=${serviceId}`, { token: user.token });
    expect((listed.json.jobs as unknown as Job[]).map((j) => j.message)).toEqual([bounded]);

    service.finish();
    const job = await untilFinal(server, user.token, id);
    expect(job).toMatchObject({ status: 'FINISHED', result: { done: true }, message: bounded });
    const { rows } = await sql<{ chars: number }>`SELECT length(message) AS chars FROM jobs WHERE id = ${id}`.execute(
      server.platform.database.db,
    );
    expect(rows[0]!.chars).toBe(MESSAGE_MAX_CHARS);

    const text = await streamed;
    const events = jobEvents(text);
    expect(events.at(-1)).toMatchObject({ status: 'FINISHED', message: bounded });
    expect(events.some((e) => e.status === 'PROCESSING' && e.message === bounded)).toBe(true);
    expect(events.every((e) => (e.message ?? '').length <= MESSAGE_MAX_CHARS)).toBe(true);
    // Each event carries the envelope: a few KB each, where before each carried the 10 MB.
    expect(text.length).toBeLessThan(events.length * 8 * 1024);
  }, 90_000);

  it('half a character in an error is stored as U+FFFD: the job ends once, FAILED', async () => {
    // PostgreSQL's jsonb refuses half a surrogate pair; the job's error is jsonb.
    const server = await (shared ??= startPlatformServer());
    const url = await listening(
      createServer((req, res) => {
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"broken\\ud800model"}');
      }),
    );
    const user = await runner(server, 'half-char');
    const serviceId = await httpServiceOf(server, user.userId, url);
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: serviceId, input: { prompt: 'hi' } },
    });
    expect(created.status).toBe(201);
    const job = await untilFinal(server, user.token, String(created.json.job_id), 200);
    expect(job).toMatchObject({
      status: 'FAILED',
      error: { code: 'service_error', message: 'The service answered 500: broken\ufffdmodel' },
    });
  }, 60_000);
});
