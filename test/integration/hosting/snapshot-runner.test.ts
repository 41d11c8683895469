// The snapshot tier end to end (docs/deploy.md, "Snapshot cold starts"; issue 52): a platform
// server whose runner has CONTAINER_SANDBOX=gvisor and CONTAINER_SNAPSHOTS=on deploys a real
// limelight.serve image from a registry, snapshots it after its first cold start, holds nothing at
// zero instances, and the next job's instance is restored: its metrics say `snapshot`, the hosting
// information shows the snapshot, and deleting the service removes it. Skips with how to run it
// when Podman, the registry, runsc or root is missing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryUnavailableReason, startRegistry, type TestRegistry } from '../../../scripts/registry.mjs';
import { runscUnavailableReason } from '../../../scripts/engine.mjs';
import { snapshotUnavailableReason } from '../../../reference-app/server/hosting';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { engineSkipReason, pushImage, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { buildServeImage, SERVE_IMAGE } from '../../setup/serveImage';
import { confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';
import { publishContainer } from './publishContainer';

const skip = engineSkipReason() ?? registryUnavailableReason() ?? runscUnavailableReason() ?? snapshotUnavailableReason();
if (skip) console.warn(`snapshot runner test skipped: ${skip}`);

describe.skipIf(skip)('a runner with memory snapshots (gVisor)', () => {
  let t: TestEngine;
  let registry: TestRegistry;
  let server: PlatformTestServer;
  let image: string;
  let dir: string;

  beforeAll(async () => {
    buildServeImage();
    [t, registry] = await Promise.all([startTestEngine({ sandbox: 'gvisor' }), startRegistry()]);
    image = pushImage(registry, SERVE_IMAGE, 'snapshot-probe:1');
    dir = mkdtempSync(path.join(tmpdir(), 'limelight-runner-snapshots-'));
    server = await startPlatformServer({
      env: {
        CONTAINER_RUNNER: 'docker',
        DOCKER_HOST: t.dockerHost,
        CONTAINER_SANDBOX: 'gvisor',
        // As sandbox-gvisor.test.ts runs it: this runsc does not start under Podman's --userns=auto.
        CONTAINER_USERNS: 'host',
        CONTAINER_SNAPSHOTS: 'on',
        CONTAINER_SNAPSHOT_DIR: dir,
        CONTAINER_MEMORY_MB: '512',
        CONTAINER_REGISTRIES: registry.host,
      },
    });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await t?.engine.docker
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined);
    await registry?.stop();
    await t?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('restores a job’s instance from the snapshot once the service has scaled to zero', { timeout: 300_000 }, async () => {
    const { session } = await signedIn(server, PUBLISHER);
    const token = session.access_token;
    const { id } = await publishContainer(server, token, registry, { image, name: 'Snapshot probe', idleTimeoutS: 10 });
    const info = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json as unknown as {
        status: string;
        snapshot: { size_mb: number; age_s: number } | null;
      };
    await expect.poll(async () => (await info()).status, { timeout: 120_000, interval: 500 }).toBe('running');
    // Taken in the background after the deploy's cold start.
    await expect.poll(async () => (await info()).snapshot?.size_mb ?? 0, { timeout: 120_000, interval: 500 }).toBeGreaterThan(1);

    const caller = await signedIn(server, await confirmedUser(server, 'snapshot-caller'));
    const run = async () => {
      const created = await rawApi(server, 'POST', '/v1/jobs', {
        token: caller.session.access_token,
        body: { service_id: id, endpoint: '/draw', input: {} },
        headers: { Prefer: 'wait=60' },
      });
      expect(created.json, JSON.stringify(created.json)).toMatchObject({ status: 'FINISHED' });
      const job = await rawApi(server, 'GET', `/v1/jobs/${String(created.json.job_id)}`, { token: caller.session.access_token });
      return job.json as unknown as { metrics: { cold_start_ms: number; cold_start_tier: string }; result: { weights: number } };
    };
    expect((await run()).metrics.cold_start_tier).toBe('warm');
    await expect.poll(async () => (await info()).status, { timeout: 60_000, interval: 500 }).toBe('scaled_to_zero');
    // At zero instances nothing of the service is running or paused.
    expect(await t.engine.containersOf(id)).toEqual([]);

    const restored = await run();
    expect(restored.metrics.cold_start_tier).toBe('snapshot');
    expect(restored.metrics.cold_start_ms).toBeGreaterThan(0);
    expect(restored.result.weights).toBe(32 * 2 ** 20);

    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token })).status).toBeLessThan(300);
    await expect.poll(() => readdirSync(path.join(dir, 'snapshots')), { timeout: 30_000 }).toEqual([]);
    // Stopping the runner leaves no network namespace made ahead of a restore.
    const closing = server;
    server = undefined as unknown as PlatformTestServer; // closed here, not again in afterAll
    await closing.close();
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).not.toMatch(/^ll-snap-/m);
  });
});
