import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, testRuntimes, TEXT2IMG, untilFinal } from '../jobs/fixtures';

// Job streams follow their job's notifications (docs/jobs.md, "Streaming"): every status change
// arrives, the final one at once (they used to re-read each job every 2 s; now the fallback read
// is every 30 s, so an event that came late would show), and the process holds at most
// MAX_JOB_STREAMS of them: one more is refused with 503 and Retry-After.

let server: PlatformTestServer;

beforeAll(async () => {
  server = await startPlatformServer({ runtimes: testRuntimes, env: { MAX_JOB_STREAMS: '2' } });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

interface Seen {
  status: string;
  at: number;
}

/** Opens a job's stream and collects each `job` event's status with the time it arrived, until it ends. */
async function follow(token: string, jobId: string): Promise<Seen[]> {
  const response = await fetch(`${server.url}/v1/jobs/${jobId}/stream`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const seen: Seen[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (/^event: job$/m.test(event) && data) seen.push({ status: (JSON.parse(data) as { status: string }).status, at: Date.now() });
    }
  }
  return seen;
}

describe('job streams', () => {
  it('get every status change, and the final event within a second of the job ending', async () => {
    const user = await runner(server, 'stream-follow');
    // Two running jobs hold the free plan's two slots, so the followed job waits QUEUED first.
    const blockers = await Promise.all(
      ['sleep:1200', 'sleep:1200'].map(async (prompt) => {
        const { json } = await rawApi(server, 'POST', '/v1/jobs', { token: user.token, body: { service_id: TEXT2IMG, input: { prompt } } });
        return String(json.job_id);
      }),
    );
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: TEXT2IMG, input: { prompt: 'sleep:1500' } },
    });
    expect(created.status).toBe(201);
    const jobId = String(created.json.job_id);
    const seen = await follow(user.token, jobId);
    const job = await untilFinal(server, user.token, jobId);
    expect(job.status).toBe('FINISHED');
    // Each change once, in order (PROCESSING twice: started, then its progress).
    expect(seen.map((s) => s.status).filter((s, i, all) => s !== all[i - 1])).toEqual(['QUEUED', 'PROCESSING', 'FINISHED']);
    const late = seen[seen.length - 1]!.at - Date.parse(job.finished_at!);
    expect(late).toBeLessThan(1_000);
    await Promise.all(blockers.map((id) => untilFinal(server, user.token, id)));
  }, 30_000);

  it('are capped per process: stream N+1 answers 503 with Retry-After until one closes', async () => {
    const [first, second] = [await runner(server, 'stream-cap-a'), await runner(server, 'stream-cap-b')];
    const open = async (user: typeof first) => {
      const { json } = await rawApi(server, 'POST', '/v1/jobs', {
        token: user.token,
        body: { service_id: TEXT2IMG, input: { prompt: 'sleep:20000' } },
      });
      const stop = new AbortController();
      const response = await fetch(`${server.url}/v1/jobs/${String(json.job_id)}/stream`, {
        headers: { Authorization: `Bearer ${user.token}` },
        signal: stop.signal,
      });
      return { jobId: String(json.job_id), response, user, close: () => stop.abort() };
    };
    // Two users, one stream each: the cap counts everyone's (each is far below the per-user cap).
    const a = await open(first);
    const b = await open(second);
    expect([a.response.status, b.response.status]).toEqual([200, 200]);
    const refused = await open(first);
    expect(refused.response.status).toBe(503);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.response.json()).toEqual({
      detail: expect.stringMatching(/as many open job streams as it may \(2\)/),
      code: 'streams_full',
    });
    a.close();
    // The slot is given back once the server sees the connection gone.
    let again = await open(first);
    for (let i = 0; again.response.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await open(first);
    }
    expect(again.response.status).toBe(200);
    for (const s of [b, again, refused, a]) {
      s.close();
      await rawApi(server, 'POST', `/v1/jobs/${s.jobId}/cancel`, { token: s.user.token });
    }
  }, 30_000);
});
