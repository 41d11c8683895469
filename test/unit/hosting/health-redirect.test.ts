// A container's health check is a request the platform makes from the host (issue 35, finding 1):
// a redirect answer must not lead it to another address (the engine's TCP API, a metadata
// service); a redirect is not healthy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitReady } from '../../../reference-app/server/runtimes/container/engine';

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
