import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, testRuntimes, TEXT2IMG, untilFinal } from './fixtures';

// docs/jobs.md, webhooks: the sender sends at most 2 deliveries of one user at once, so a user
// whose receiver hangs holds 2 of the sender's slots and another user's webhook goes out at once.
// Before, a claimed delivery was pushed 60 s ahead and no longer counted: every poll took 2 more
// of the hanging user's, until they held all 16 slots and others waited for the 10 s timeouts.

const SENDER_SLOTS = 16;
let server: PlatformTestServer;
beforeAll(async () => {
  server = await startPlatformServer({
    runtimes: testRuntimes,
    env: { JOB_WEBHOOK_ALLOW_PRIVATE: 'true', JOB_POLL_MS: '200', JOB_WEBHOOK_CONCURRENCY: String(SENDER_SLOTS) },
  });
});
afterAll(() => server?.close());

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<[Server, string]> {
  const hook = createServer(handler);
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  return [hook, `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`];
}

it('a hanging receiver holds at most 2 sender slots, and another user’s webhook is not kept waiting', async () => {
  let open = 0;
  let mostOpen = 0;
  // Never answers: each delivery holds its slot until the platform's 10 s delivery timeout.
  const [hanging, hangingUrl] = await listen((req) => {
    open++;
    mostOpen = Math.max(mostOpen, open);
    req.socket.on('close', () => open--);
  });
  const received: number[] = [];
  const [prompt, promptUrl] = await listen((req, res) => {
    received.push(Date.now());
    req.resume();
    res.statusCode = 204;
    res.end();
  });
  try {
    const slow = await runner(server, 'hangs');
    const hooks = [];
    for (let i = 0; i < SENDER_SLOTS + 4; i++) {
      const { status, json } = await rawApi(server, 'POST', '/v1/jobs', {
        token: slow.token,
        body: { service_id: TEXT2IMG, input: { prompt: `slow ${i}` }, webhook: hangingUrl },
      });
      expect(status).toBe(201);
      hooks.push(String(json.job_id));
    }
    for (const id of hooks) await untilFinal(server, slow.token, id);
    // Several sender polls (one a second) pass with all of them due.
    await new Promise((r) => setTimeout(r, 3000));

    const other = await runner(server, 'prompt');
    const { json } = await rawApi(server, 'POST', '/v1/jobs', {
      token: other.token,
      body: { service_id: TEXT2IMG, input: { prompt: 'on time' }, webhook: promptUrl },
    });
    const finished = await untilFinal(server, other.token, String(json.job_id));
    expect(finished.status).toBe('FINISHED');
    const ended = Date.parse(finished.finished_at!);
    for (let i = 0; i < 80 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(received).toHaveLength(1);
    // Sent within a poll or two of the end, not after the hanging deliveries' 10 s timeouts.
    expect(received[0]! - ended).toBeLessThan(5000);
    expect(mostOpen).toBeLessThanOrEqual(2);
    expect(mostOpen).toBe(2);
  } finally {
    hanging.closeAllConnections();
    hanging.close();
    prompt.close();
  }
}, 120_000);
