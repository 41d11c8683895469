// A container's health check is a request the platform makes from the host (issue 35, finding 1):
// a redirect answer must not lead it to another address (the engine's TCP API, a metadata
// service); a redirect is not healthy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitReady } from '../../../reference-app/server/hosting/engine';

const servers: Server[] = [];
const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('health check against a redirect', () => {
  let target: string;
  let container: string;
  const seen: string[] = [];

  beforeAll(async () => {
    target = await listen((req, res) => {
      seen.push(req.url ?? '');
      res.end('ok');
    });
    container = await listen((_req, res) => res.writeHead(302, { location: `${target}/containers/json` }).end());
  });
  afterAll(() => servers.forEach((s) => s.close()));

  it('is not followed and does not pass', async () => {
    await expect(waitReady(container, { healthPath: '/openapi.json', timeoutMs: 500 })).rejects.toThrow(/answered 302/);
    expect(seen).toEqual([]);
  });
});

describe('health check that answers, then stops answering', () => {
  afterAll(() => servers.forEach((s) => s.close()));

  it('names what the container answered, not the last attempt cut short by the deadline', async () => {
    let requests = 0;
    // 404 at first, then no answer at all: the last attempts end in timeouts.
    const container = await listen((_req, res) => {
      if (++requests <= 2) res.writeHead(404).end();
    });
    await expect(waitReady(container, { healthPath: '/healthz', timeoutMs: 600, intervalMs: 20 })).rejects.toThrow(
      /failed for 1 s: GET \/healthz answered 404$/,
    );
    expect(requests).toBeGreaterThan(2);
  });
});
