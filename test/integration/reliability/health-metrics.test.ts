import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { rawApi } from '../helpers';
import { runner, untilFinal } from '../jobs/fixtures';

// Operators see it (docs/deploy.md, "Health checks" and "Metrics"): liveness apart from
// readiness, and /metrics in the Prometheus text format for this machine or METRICS_TOKEN.

let server: PlatformTestServer;
let withToken: PlatformTestServer;

beforeAll(async () => {
  server = await startPlatformServer();
  withToken = await startPlatformServer({ env: { METRICS_TOKEN: 'scrape-secret' } });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await withToken?.close();
});

describe('health checks', () => {
  it('answers /health, /health/live and /health/ready while the database answers', async () => {
    for (const path of ['/health', '/health/live', '/health/ready']) {
      const { status, json } = await rawApi(server, 'GET', path);
      expect({ path, status, ok: json.status }).toEqual({ path, status: 200, ok: 'ok' });
    }
  });
});

describe('/metrics', () => {
  it('exposes requests by route pattern, the queue, jobs, the database and the loop delay', async () => {
    const user = await runner(server, 'metrics');
    const created = await rawApi(server, 'POST', '/v1/jobs', {
      token: user.token,
      body: { service_id: 'lime-diffusion-xl', endpoint: '/generate', input: { prompt: 'a lime', width: 64, height: 64 } },
    });
    await untilFinal(server, user.token, String(created.json.job_id));
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    for (const series of [
      'limelight_http_requests_total{method="GET",route="/v1/jobs/:job_id",status="200"}',
      'limelight_http_request_duration_seconds_bucket',
      'limelight_jobs_queued{pool="local"}',
      'limelight_jobs_oldest_queued_seconds{pool="io"}',
      'limelight_job_pickup_seconds_count{pool="local"} 1',
      'limelight_job_run_seconds_count{pool="local",status="FINISHED"} 1',
      'limelight_db_up 1',
      'limelight_db_connection_errors_total 0',
      'limelight_db_reconnects_total 0',
      'limelight_event_loop_delay_max_seconds',
      'limelight_event_loop_delay_p99_seconds',
      'process_resident_memory_bytes',
    ])
      expect(text).toContain(series);
    // Route patterns, never raw paths: no series names a job id.
    expect(text).not.toContain(String(created.json.job_id));
  });

  it('is refused to a request relayed by a proxy, and needs the bearer token when METRICS_TOKEN is set', async () => {
    expect((await fetch(`${server.url}/metrics`, { headers: { 'X-Forwarded-For': '203.0.113.9' } })).status).toBe(403);
    expect((await fetch(`${withToken.url}/metrics`)).status).toBe(401);
    const allowed = await fetch(`${withToken.url}/metrics`, { headers: { Authorization: 'Bearer scrape-secret' } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('limelight_db_up 1');
  });
});
