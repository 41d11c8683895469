// A publisher's container answering job-style must not make the platform call anything but
// that container (issue 35, finding 1): its status and cancel URLs stay on the instance's own
// origin. The stand-in target is a server on the host's loopback (where a metadata service, the
// registry, the engine's TCP API or the platform itself would answer), which must see nothing.
// On the real engine (Podman's Docker API) and registry; skips with how to run it otherwise.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContainerRuntime, Deployment } from '../../../reference-app/server/hosting';
import { testContext } from '../../unit/server/runtimes/harness';
import { deploymentSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`runner SSRF tests skipped: ${skip}`);

const JOB_ENDPOINT = { method: 'POST' as const, path: '/fixture/job', parameters: [] };

describe.skipIf(skip)('follow-up URLs of a container (Podman)', () => {
  const h = useHosting('ssrf:1');
  let deployment: Deployment;
  let target: Server;
  let targetUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('host secret');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    deployment = new Deployment(
      h.t.engine,
      deploymentSpec(h, 'ssrf', { minInstances: 1, maxInstances: 1, idleTimeoutS: 60, concurrency: 4 }),
      { readyTimeoutMs: 15_000 },
    );
    expect(await deployment.deploy()).toMatchObject({ status: 'running' });
  }, 180_000);

  afterAll(async () => {
    await deployment?.stop();
    target?.close();
  }, 60_000);

  afterEach(() => {
    seen.length = 0;
  });

  it('a status_url elsewhere is refused, and never fetched', async () => {
    const { ctx } = testContext(JOB_ENDPOINT);
    const run = createContainerRuntime(deployment).run({ status_url: `${targetUrl}/latest/meta-data` }, ctx);
    await expect(run).rejects.toMatchObject({ code: 'invalid_url', message: expect.stringMatching(/only its own address/) });
    expect(seen).toEqual([]);
  }, 30_000);

  it('a cancel_url elsewhere gets no POST when the job is cancelled', async () => {
    const recorded = testContext(JOB_ENDPOINT);
    // The status URL is the container's own (it answers "queued" for ever); the cancel URL is not.
    const run = createContainerRuntime(deployment).run(
      { status_url: '/fixture/job', cancel_url: `${targetUrl}/containers/x/stop` },
      recorded.ctx,
    );
    setTimeout(() => recorded.controller.abort(new Error('cancelled by the owner')), 1500);
    await expect(run).rejects.toThrow(/cancelled by the owner/);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen).toEqual([]);
  }, 30_000);

  it('the container’s own follow-ups still work (relative status URL)', async () => {
    const recorded = testContext(JOB_ENDPOINT);
    const run = createContainerRuntime(deployment).run({ status_url: '/fixture/job' }, recorded.ctx);
    setTimeout(() => recorded.controller.abort(new Error('enough polling')), 1500);
    await expect(run).rejects.toThrow(/enough polling/);
  }, 30_000);
});
