import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEndpoint } from '../../../../src/api';
import { createHttpRuntime } from '../../../../reference-app/server/runtimes/http/httpRuntime';
import { checkServiceUrl, isPrivateAddress, ownAddressOf } from '../../../../reference-app/server/runtimes/http/urlPolicy';
import { JsonText, RuntimeError, type MediaRef, type RunContext } from '../../../../reference-app/server/runtimes/runtime';
import { LARGE_ROWS, SKETCH_PNG, startSketchService, type SketchService } from '../../../fixtures/sketchService';

// The HTTP runtime against a real local HTTP service (test/fixtures/sketchService.ts). The
// RunContext is the queue's seam: it records progress and keeps stored media in memory.

let service: SketchService;
beforeAll(async () => {
  service = await startSketchService();
});
afterAll(() => service.close());

interface Recorded {
  ctx: RunContext;
  progress: Array<[number, string | undefined]>;
  stored: Array<{ bytes: Uint8Array; contentType: string }>;
  controller: AbortController;
}

function context(endpoint: Partial<ServiceEndpoint> & { path: string }): Recorded {
  const controller = new AbortController();
  const progress: Recorded['progress'] = [];
  const stored: Recorded['stored'] = [];
  const ctx: RunContext = {
    jobId: 'job-1',
    attempt: 1,
    serviceId: 'svc',
    endpoint: { method: 'POST', parameters: [], ...endpoint },
    signal: controller.signal,
    progress: (fraction, message) => progress.push([fraction, message]),
    partialText: () => undefined,
    storeMedia: async (bytes, contentType): Promise<MediaRef> => {
      stored.push({ bytes, contentType });
      return { url: `/media/files/${stored.length}`, content_type: contentType, size: bytes.byteLength };
    },
    readFile: async (url) => {
      const match = /^data:([^;,]+);base64,(.*)$/.exec(url);
      if (!match) throw new Error(`test context reads only data: URIs, got ${url}`);
      return { bytes: Buffer.from(match[2]!, 'base64'), contentType: match[1]! };
    },
  };
  return { ctx, progress, stored, controller };
}

const runtime = (headers?: Record<string, string>) =>
  createHttpRuntime({ base_url: service.url, headers }, { policy: { allowPrivateAddresses: true }, pollIntervalMs: 10 });

describe('HTTP runtime', () => {
  it('forwards the input as JSON with the secret header and returns a plain JSON answer', async () => {
    const { ctx } = context({ path: '/echo' });
    const result = await runtime({ 'X-Service-Secret': 's3cret' }).run({ prompt: 'a cat', steps: 3 }, ctx);
    expect(result).toEqual({ echo: { prompt: 'a cat', steps: 3 } });
    const request = service.received.at(-1)!;
    expect(request.headers['x-service-secret']).toBe('s3cret');
    expect(request.headers['content-type']).toBe('application/json');
    // At-least-once delivery: the service can dedupe by the job (docs/jobs.md).
    expect(request.headers['idempotency-key']).toBe('job-1');
    expect(request.headers['limelight-attempt']).toBe('1');
  });

  it('reads a large JSON answer in a data thread, storing the media inside it, and keeps it serialised', async () => {
    const { ctx, stored } = context({ path: '/large' });
    const result = await runtime().run({}, ctx);
    expect(result).toBeInstanceOf(JsonText);
    const parsed = JSON.parse(Buffer.from((result as JsonText).bytes).toString('utf8')) as { rows: string[]; image: { url: string } };
    expect(parsed.rows).toHaveLength(LARGE_ROWS);
    expect(parsed.image.url).toBe('/media/files/1');
    expect(Buffer.from(stored[0]!.bytes).equals(SKETCH_PNG)).toBe(true);
  });

  it('stores a media answer and returns its file reference', async () => {
    const { ctx, stored } = context({ path: '/generate' });
    const result = await runtime().run({ prompt: 'a cat' }, ctx);
    expect(result).toEqual({ url: '/media/files/1', content_type: 'image/png', size: SKETCH_PNG.length });
    expect(Buffer.from(stored[0]!.bytes).equals(SKETCH_PNG)).toBe(true);
  });

  it('sends file inputs as multipart form data', async () => {
    const { ctx } = context({ path: '/upscale', parameters: [{ name: 'image', type: 'file', required: true }] });
    const result = (await runtime().run({ image: `data:image/png;base64,${SKETCH_PNG.toString('base64')}`, factor: 2 }, ctx)) as {
      content_type: string;
      received_bytes: number;
    };
    expect(result.content_type).toMatch(/^multipart\/form-data; boundary=/);
    expect(result.received_bytes).toBeGreaterThan(SKETCH_PNG.length);
  });

  it('polls a job-style answer until it finishes, reporting progress, and stores media inside the result', async () => {
    const { ctx, progress, stored } = context({ path: '/job' });
    const result = await runtime().run({}, ctx);
    expect(result).toEqual({ caption: 'a sketch', image: { url: '/media/files/1', content_type: 'image/png', size: SKETCH_PNG.length } });
    expect(stored).toHaveLength(1);
    expect(progress).toContainEqual([0.5, 'drawing']);
    expect(service.received.some((r) => r.path === '/status')).toBe(true);
  });

  it('reports a failing service as a RuntimeError with its detail', async () => {
    const { ctx } = context({ path: '/fail' });
    await expect(runtime().run({}, ctx)).rejects.toThrow(
      new RuntimeError('service_error', 'The service answered 500: model weights missing'),
    );
  });

  it('reports an unreachable service clearly', async () => {
    const { ctx } = context({ path: '/x' });
    const gone = await startSketchService();
    await gone.close(); // a port where nothing listens any more
    const closed = createHttpRuntime({ base_url: gone.url }, { policy: { allowPrivateAddresses: true } });
    await expect(closed.run({}, ctx)).rejects.toThrow(`The service at ${gone.url} is unreachable (ECONNREFUSED)`);
  });

  it('stops a hanging request when the job is cancelled or times out', async () => {
    const { ctx, controller } = context({ path: '/hang' });
    const running = runtime().run({}, ctx);
    setTimeout(() => controller.abort(new Error('cancelled by owner')), 50);
    await expect(running).rejects.toThrow('cancelled by owner');
  });

  it('cancels the upstream job when a polled job is cancelled', async () => {
    const { ctx, controller } = context({ path: '/slow-job' });
    const running = runtime().run({}, ctx);
    // Cancelled once the runtime follows the job (it polls the status URL), not after a fixed
    // wait: a busy machine took longer than 60 ms to read the first answer.
    await expect.poll(() => service.received.some((r) => r.path.startsWith('/never/'))).toBe(true);
    controller.abort(new Error('cancelled by owner'));
    await expect(running).rejects.toThrow('cancelled by owner');
    await expect.poll(() => service.cancelled.length).toBe(1);
  });

  it('refuses answers above the size limit', async () => {
    const { ctx } = context({ path: '/generate' });
    const small = createHttpRuntime({ base_url: service.url }, { policy: { allowPrivateAddresses: true }, maxResponseBytes: 10 });
    await expect(small.run({}, ctx)).rejects.toThrow(`The service's answer is ${SKETCH_PNG.length} bytes; the limit is 10`);
  });
});

describe('service URL policy', () => {
  it('knows private, loopback, link-local and mapped addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses private addresses in production, other schemes and credentials always', async () => {
    const production = { allowPrivateAddresses: false };
    await expect(checkServiceUrl(new URL('http://169.254.169.254/latest'), production)).rejects.toThrow(
      /private address \(169\.254\.169\.254\)/,
    );
    await expect(checkServiceUrl(new URL('http://localhost:3000/'), production)).rejects.toThrow(/private address/);
    await expect(checkServiceUrl(new URL('file:///etc/passwd'), { allowPrivateAddresses: true })).rejects.toThrow(
      'Service URLs must use http or https, not file',
    );
    await expect(checkServiceUrl(new URL('http://u:p@example.com/'), { allowPrivateAddresses: true })).rejects.toThrow(
      /must not contain credentials/,
    );
    await expect(checkServiceUrl(new URL('http://8.8.8.8/'), production)).resolves.toBeUndefined();
  });

  it('refuses the container engine’s TCP API like the platform itself, in every mode (issue 35)', async () => {
    for (const dockerHost of ['tcp://127.0.0.1:2375', 'tcp://10.0.0.5:2376']) {
      const own = ownAddressOf('http://localhost:3000', 3000, dockerHost);
      const port = new URL(dockerHost.replace('tcp:', 'http:')).port;
      for (const allowPrivateAddresses of [true, false]) {
        const policy = { allowPrivateAddresses, own };
        for (const url of [`http://127.0.0.1:${port}/containers/json`, dockerHost.replace('tcp:', 'http:') + '/v1.41/info']) {
          await expect(checkServiceUrl(new URL(url), policy), url).rejects.toThrow(/container engine/);
        }
      }
    }
    // A unix socket is no address a URL can name; nothing changes.
    expect(ownAddressOf('http://localhost:3000', 3000, 'unix:///run/podman/podman.sock')).toEqual(
      ownAddressOf('http://localhost:3000', 3000),
    );
  });
});
