// Issue 47, finding 7: a deploy that never started said "deployed". On a real server with the
// runner on (Podman's Docker API) and a real registry, a runner with room for one instance only:
// an update of the image is refused ("the runner has no room…"), the previous version keeps
// serving, and model_hosting_information says so in `rollout` (failed, with the reason) where
// `status` alone said `running`; the CLI's wait (limelight/cli/deploy.py) exits non-zero with that
// reason. Saving the refused image again is refused again; saving the serving image again is a
// rollout that succeeded. Skips with how to run it
// when Podman is missing.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { FIXTURE_IMAGE, pushImage } from '../../setup/containerEngine';
import { findServePython, SDK_PYTHON_PATH } from '../../setup/servePython';
import { hostingSkipReason, runnerEnv, useHosting } from './hostingSetup';
import { publishContainer } from './publishContainer';
import { confirmedUser, PUBLISHER, rawApi, signedIn } from '../helpers';

const skip = hostingSkipReason();
if (skip) console.warn(`rollout outcome tests skipped: ${skip}`);

interface Hosting {
  status: string;
  instances: number;
  message: string | null;
  rollout?: { image: string; status: string; message: string } | null;
}

describe.skipIf(skip)('the outcome of a rollout (issue 47, finding 7)', () => {
  const h = useHosting('rollout:1');
  let server: PlatformTestServer;
  let second: string;

  beforeAll(async () => {
    // The same content under another name: another image reference, so saving it rolls.
    second = pushImage(h.registry, FIXTURE_IMAGE, 'rollout:2');
    // Room for one 256 MB instance (CONTAINER_MEMORY_MB caps each at 256), and no warm spare.
    server = await startPlatformServer({ env: { ...runnerEnv(h), CONTAINER_CAPACITY_MB: '256', CONTAINER_WARM_POOL: 'none' } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await h.t?.engine.docker
      .getImage(second)
      .remove({ force: true })
      .catch(() => undefined);
  }, 60_000);

  it('an update the runner has no room for is a failed rollout, in the API and in the CLI', { timeout: 120_000 }, async () => {
    // The seeded publisher's plan allows container services.
    const { session } = await signedIn(server, PUBLISHER);
    const token = session.access_token;
    const created = await publishContainer(server, token, h.registry, { image: h.image, name: 'Rollout greeter', idleTimeoutS: 60 });
    const id = created.id;
    const hosting = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json as unknown as Hosting;

    await expect.poll(async () => (await hosting()).rollout, { timeout: 30_000 }).toMatchObject({ image: h.image, status: 'succeeded' });
    expect(await hosting()).toMatchObject({ status: 'running', instances: 1 });

    const runtime = created.runtime as Record<string, unknown>;
    const save = async (image: string) => {
      const saved = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, {
        token,
        body: {
          runtime: {
            type: 'container',
            image,
            registry_credential_id: runtime.registry_credential_id,
            gpu: runtime.gpu,
            min_instances: 0,
            max_instances: 1,
            idle_timeout_s: 60,
          },
        },
      });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    };
    await save(second);
    // At once: the new image's rollout, never the previous image's success. The runner may have
    // refused it already (no room is known at once; seen under CI's load), so failed counts too.
    const right = await hosting();
    expect(right.rollout).toMatchObject({ image: second });
    expect(['pending', 'in_progress', 'failed']).toContain(right.rollout!.status);

    await expect.poll(async () => (await hosting()).rollout?.status, { timeout: 30_000 }).toBe('failed');
    const refused = await hosting();
    // Before: only this, which reads as done.
    expect(refused).toMatchObject({ status: 'running', instances: 1 });
    expect(refused.rollout!.image).toBe(second);
    expect(refused.rollout!.message).toMatch(
      /^The update did not start, the previous version still runs: The runner has no room for another \d+ MB instance/,
    );
    expect(refused.message).toBe(refused.rollout!.message);
    // The previous version still answers.
    const run = await rawApi(server, 'POST', '/v1/jobs', {
      token,
      body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
      headers: { Prefer: 'wait=30' },
    });
    expect(run.json).toMatchObject({ status: 'FINISHED', result: { text: 'Hello, Ada.' } });

    // What `limelight deploy` waits with: exit 1 and the platform's reason, never "deployed".
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token, body: {} });
    const python = findServePython().python ?? 'python3';
    // Not spawnSync: the server answering it runs in this process.
    const waited = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(
        python,
        [
          '-c',
          'import sys\nfrom limelight.cli.deploy import wait_for_rollout\nfrom limelight.cli.push import Platform\n' +
            'wait_for_rollout(Platform.from_env(), sys.argv[1], sys.argv[2], 20, print)',
          id,
          second,
        ],
        {
          timeout: 60_000,
          env: { ...process.env, PYTHONPATH: SDK_PYTHON_PATH, LIMELIGHT_BASE_URL: server.url, LIMELIGHT_API_KEY: String(key.json.secret) },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(waited.status, waited.stdout).toBe(1);
    expect(waited.stderr).toContain(`PublishError: the rollout of ${second} failed: The update did not start`);
    expect(waited.stderr).toMatch(/no room for another \d+ MB instance/);

    // Saving the refused image again tries again (what runs is still the previous revision), and
    // is refused again: never "unchanged, so done".
    await save(second);
    expect(['pending', 'in_progress']).toContain((await hosting()).rollout!.status);
    await expect.poll(async () => (await hosting()).rollout?.status, { timeout: 30_000 }).toBe('failed');
    expect((await hosting()).rollout!.message).toMatch(/no room for another \d+ MB instance/);

    // Saving the image that serves is a rollout done (it never stays pending).
    await save(h.image);
    await expect.poll(async () => (await hosting()).rollout, { timeout: 15_000 }).toMatchObject({ image: h.image, status: 'succeeded' });
    expect(await hosting()).toMatchObject({ status: 'running', instances: 1 });
    // A caller who does not own the service sees no rollout (the image is the owner's setting).
    const other = await signedIn(server, await confirmedUser(server, 'rollout-caller'));
    const seen = await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, {
      token: other.session.access_token,
    });
    expect(seen.status).toBe(200);
    expect(seen.json).not.toHaveProperty('rollout');

    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token })).status).toBeLessThan(300);
    await expect.poll(() => h.t.engine.containersOf(id)).toEqual([]);
  });
});
