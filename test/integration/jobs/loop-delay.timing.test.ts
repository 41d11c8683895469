import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { fetchInThread } from './fetchInThread';
import { httpServiceOf, runner, untilFinal } from './fixtures';

// The event loop is never blocked by data (docs/jobs.md, "Large results and uploads"): the
// platform server runs in this process, so its stalls are this loop's. A 45 MB JSON answer is
// stored and downloaded, and a large file is uploaded, while a loop-delay probe watches; the
// client side of the transfers runs in a worker thread so only the server's work is measured.
// A timing test: it runs in the serial integration step (vitest project integration-serial).

/** Longest the loop may stall while the server moves data. */
const MAX_STALL_MS = 200;
const ANSWER_MB = 45;

/** A JSON answer of about `mb` MB: rows of numbers, as an embeddings or detections service answers. */
function bigAnswer(mb: number): Buffer {
  const row = JSON.stringify({ id: 'row-000000', score: 0.123456789, vector: Array.from({ length: 64 }, (_, i) => i / 7) });
  const rows = Math.ceil((mb * 1024 * 1024) / (row.length + 1));
  const parts: string[] = [];
  for (let i = 0; i < rows; i++) parts.push(row.replace('000000', String(i).padStart(6, '0')));
  return Buffer.from(`{"rows":[${parts.join(',')}]}`);
}

/** Runs `work` while sampling the loop's delay; answers the work's value and the longest stall in ms. */
async function watchLoop<T>(work: () => Promise<T>): Promise<{ value: T; maxMs: number }> {
  const probe = monitorEventLoopDelay({ resolution: 10 });
  probe.enable();
  try {
    const value = await work();
    return { value, maxMs: probe.max / 1e6 };
  } finally {
    probe.disable();
  }
}

let server: PlatformTestServer;
let service: ReturnType<typeof createServer>;
let answer: Buffer;

beforeAll(async () => {
  answer = bigAnswer(ANSWER_MB);
  service = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.byteLength) });
    res.end(answer);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  server = await startPlatformServer();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => service?.close(resolve));
});

describe('large data and the event loop', () => {
  it(`stores a ${ANSWER_MB} MB JSON answer and serves it for download without stalling the loop`, async () => {
    const user = await runner(server, 'big-answer');
    const serviceId = await httpServiceOf(server, user.userId, `http://127.0.0.1:${(service.address() as AddressInfo).port}`);
    const { value: job, maxMs: storeMs } = await watchLoop(async () => {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: user.token,
        body: { service_id: serviceId, input: { prompt: 'big' } },
      });
      expect(created.status).toBe(201);
      return untilFinal(server, user.token, String(created.json.job_id));
    });
    expect(job.error).toBeNull();
    expect(job.status).toBe('FINISHED');
    const file = (job.result as { result_file: { url: string; size: number } }).result_file;
    expect(file.size).toBeGreaterThan(ANSWER_MB * 1024 * 1024 * 0.99);

    const { value: downloaded, maxMs: downloadMs } = await watchLoop(() => fetchInThread({ url: file.url }));
    expect(downloaded.status).toBe(200);
    expect(downloaded.size).toBe(file.size);
    console.info(`loop stall: ${storeMs.toFixed(0)} ms storing, ${downloadMs.toFixed(0)} ms downloading a ${ANSWER_MB} MB answer`);
    expect(storeMs).toBeLessThan(MAX_STALL_MS);
    expect(downloadMs).toBeLessThan(MAX_STALL_MS);
  }, 120_000);

  it('takes a large upload without stalling the loop', async () => {
    const user = await runner(server, 'big-upload');
    const size = 24 * 1024 * 1024;
    const { value: uploaded, maxMs } = await watchLoop(() =>
      fetchInThread({
        url: `${server.url}/v1/files`,
        method: 'POST',
        headers: { Authorization: `Bearer ${user.token}` },
        upload: { field: 'file', filename: 'big.txt', type: 'text/plain', size },
      }),
    );
    expect(uploaded.status).toBe(201);
    expect((uploaded.json as { size: number }).size).toBe(size);
    console.info(`loop stall: ${maxMs.toFixed(0)} ms uploading 24 MB`);
    expect(maxMs).toBeLessThan(MAX_STALL_MS);
  }, 60_000);
});
