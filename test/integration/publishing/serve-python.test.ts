// A service written with limelight.serve (sdk/python/limelight/serve), run by `limelight serve` on a
// loopback port and published as an HTTP service on a real platform server: its endpoints are
// imported from its /openapi.json, a long run answers job-style and its progress reaches the job,
// a cancel raises inside the Python function, and an image goes in (uploaded by the platform as
// multipart) and comes back as a stored file. Skips, saying why, without Debian's python3-fastapi.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { SKETCH_PNG } from '../../fixtures/sketchService';
import { findServePython, SDK_PYTHON_PATH } from '../../setup/servePython';
import { confirmedUser, rawApi, signedIn } from '../helpers';

const found = findServePython();
if (found.skip) console.warn(`limelight.serve platform tests skipped: ${found.skip}`);

const APP = `
import time
from pathlib import Path
from pydantic import Field
from limelight.serve import App, Cancelled, ImageFile, Job

app = App(title="Steps", answer_within_s=0.3)

@app.endpoint("/steps", time_limit_s=120)
def steps(n: int = Field(10, ge=1, le=10000), job: Job = None) -> dict:
    """Counts to n, slowly."""
    try:
        for i in range(n):
            job.progress(i / n, f"step {i + 1} of {n}")
            time.sleep(0.05)
    except Cancelled as cancelled:
        Path("cancelled.txt").write_text(str(cancelled))
        raise
    return {"counted": n, "attempt": job.attempt}

@app.endpoint("/echo-image")
def echo_image(image: ImageFile) -> ImageFile:
    return ImageFile(image.read(), image.content_type)
`;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(found.skip)('a limelight.serve service published on the platform', () => {
  let folder: string;
  let python: ChildProcess;
  let baseUrl: string;
  let server: PlatformTestServer;
  let token: string;
  let serviceId: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'limelight-serve-'));
    writeFileSync(path.join(folder, 'steps.py'), APP);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    python = spawn(found.python!, ['-m', 'limelight', 'serve', 'steps:app', '--port', String(port)], {
      cwd: folder,
      env: { ...process.env, PYTHONPATH: SDK_PYTHON_PATH },
      stdio: 'ignore',
    });
    server = await startPlatformServer();
    await until(
      () =>
        fetch(`${baseUrl}/health`).then(
          (r) => (r.ok ? true : undefined),
          () => undefined,
        ),
      'limelight serve',
    );
    const { session } = await signedIn(server, await confirmedUser(server, 'serve-python'));
    token = session.access_token;
  }, 120_000);

  afterAll(async () => {
    python?.kill();
    await server?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const api = (method: string, route: string, body?: unknown, headers?: Record<string, string>) =>
    rawApi(server, method, route, { token, body, headers });
  /** The answer's JSON body as the shape a test expects. */
  const body = <T>(answer: { json: unknown }) => answer.json as T;
  const job = async (id: string) => body<Record<string, unknown>>(await api('GET', `/v1/jobs/${id}`));

  it('imports the endpoints from the service’s own /openapi.json', async () => {
    const created = await api('POST', '/v1/model_management/services', {
      display_name: 'Steps',
      visibility: 'public',
      runtime: { type: 'http', base_url: baseUrl },
    });
    expect(created.status).toBe(201);
    serviceId = String(body<{ id: string }>(created).id);
    const imported = await api('POST', `/v1/model_management/services/${serviceId}/import_openapi`, {});
    const { endpoints, unsupported } = body<{ endpoints: { path: string; parameters: { name: string }[] }[]; unsupported: string[] }>(
      imported,
    );
    expect(unsupported).toEqual([]);
    expect(endpoints.map((e) => [e.path, e.parameters.map((p) => p.name)])).toEqual([
      ['/steps', ['n']],
      ['/echo-image', ['image']],
    ]);
    expect((await api('PATCH', `/v1/model_management/services/${serviceId}`, { endpoints })).status).toBe(200);
  });

  it('runs a long job job-style: the function’s progress and message reach the platform’s job', async () => {
    const created = await api('POST', '/v1/jobs', { service_id: serviceId, endpoint: '/steps', input: { n: 40 } });
    const id = String(body<{ job_id: string }>(created).job_id);
    const midway = await until(async () => {
      const current = await job(id);
      return typeof current.message === 'string' && current.message.startsWith('step ') && current.status === 'PROCESSING'
        ? current
        : undefined;
    }, 'progress from the Python function');
    expect(midway.progress).toBeGreaterThan(0);
    expect(midway.progress).toBeLessThan(1);
    const done = await until(async () => {
      const current = await job(id);
      return current.status === 'FINISHED' || current.status === 'FAILED' ? current : undefined;
    }, 'the job to finish');
    expect(done).toMatchObject({ status: 'FINISHED', result: { counted: 40, attempt: 1 }, progress: 1 });
  }, 60_000);

  it('cancels: Cancelled is raised inside the Python function', async () => {
    const created = await api('POST', '/v1/jobs', { service_id: serviceId, endpoint: '/steps', input: { n: 5000 } });
    const id = String(body<{ job_id: string }>(created).job_id);
    // Past the first answer (job-style): the platform cancels through the service's cancel_url.
    await until(async () => {
      const current = await job(id);
      return typeof current.message === 'string' && current.message.startsWith('step ') ? true : undefined;
    }, 'the run');
    expect((await api('POST', `/v1/jobs/${id}/cancel`)).status).toBe(200);
    const marker = path.join(folder, 'cancelled.txt');
    expect(await until(async () => (existsSync(marker) ? readFileSync(marker, 'utf8') : undefined), 'Cancelled in Python')).toBe(
      'the job was cancelled',
    );
    expect((await job(id)).status).toBe('CANCELLED');
  }, 60_000);

  it('takes an image as a multipart upload and answers a file the platform stores', async () => {
    const input = { image: `data:image/png;base64,${Buffer.from(SKETCH_PNG).toString('base64')}` };
    const run = await api('POST', '/v1/jobs', { service_id: serviceId, endpoint: '/echo-image', input }, { Prefer: 'wait=30' });
    const { status, result } = body<{ status: string; result: { url: string; content_type: string } }>(run);
    expect(status).toBe('FINISHED');
    expect(result.content_type).toBe('image/png');
    const stored = await fetch(new URL(result.url, server.url));
    expect(Buffer.from(await stored.arrayBuffer()).equals(Buffer.from(SKETCH_PNG))).toBe(true);
  }, 60_000);
});
