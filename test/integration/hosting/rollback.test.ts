// Versions and rollback (issue 49, item 6; docs/publishing.md, "Versions and rollback") on a real
// server with the runner on Podman's Docker API and the platform's own registry: two deploys of a
// greeter by digest ("Hello", then "Howdy") are two versions with digest, time and who; `limelight
// versions` lists them, `limelight rollback <short digest>` redeploys the first through the same
// rolling update as a push, waits for its rollout, and the first answer comes back. A version
// whose image was deleted from the registry since is refused in words. Skips with how to run it
// when Podman or docker-registry is missing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import { buildImageFrom, engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { removeImagesOf, startRegistryPlatform } from '../../setup/publishingPlatform';
import { findServePython, SDK_PYTHON_PATH } from '../../setup/servePython';
import { apiClients, PUBLISHER, rawApi, signedIn } from '../helpers';

const registryMissing =
  spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)';
const skip = engineSkipReason() ?? registryMissing;
if (skip) console.warn(`rollback tests skipped: ${skip}`);

const HOWDY = 'localhost/limelight-rollback-test:howdy';
const REPOSITORY = 'rollback-greeter';

interface Version {
  image: string;
  digest: string | null;
  kind: string;
  deployed_at: string;
  deployed_by: { id: string; email: string | null } | null;
  outcome: string;
  current: boolean;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // Not spawnSync: the server answering it runs in this process.
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, timeout: 120_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe.skipIf(skip)('rolling back to an earlier version (issue 49, item 6)', () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  let host: string;

  beforeAll(async () => {
    t = await startTestEngine();
    // The fixture with another greeting: the same service, another answer (test/fixtures/container/service.mjs).
    buildImageFrom(HOWDY, ['ENV GREETING=Howdy']);
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-rollback-'));
    ({ server, host } = await startRegistryPlatform(t, dataDir));
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    execFileSync('podman', ['rmi', '--force', HOWDY], { env: podmanEnv(), stdio: 'ignore' });
    removeImagesOf(REPOSITORY);
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('two deploys are two versions; `limelight rollback` brings the first answer back', { timeout: 300_000 }, async () => {
    // The seeded publisher's plan allows container services.
    const { session } = await signedIn(server, PUBLISHER);
    const token = session.access_token;
    const key = String((await rawApi(server, 'POST', '/v1/profile/create_api_key', { token, body: {} })).json.secret);
    const namespace = String((await rawApi(server, 'GET', '/v1/registry', { token: key })).json.namespace);
    const repository = `${host}/${namespace}/${REPOSITORY}`;
    const digestDir = mkdtempSync(path.join(tmpdir(), 'limelight-rollback-digest-'));
    /** Pushes `local` as `tag` and answers the image by its digest, as `limelight push` pins it. */
    const push = async (local: string, tag: string) => {
      const file = path.join(digestDir, tag);
      const pushed = await run(
        'podman',
        ['push', '--quiet', '--tls-verify=false', '--creds', `anyone:${key}`, '--digestfile', file, local, `docker://${repository}:${tag}`],
        podmanEnv(),
      );
      expect(pushed.status, pushed.stderr).toBe(0);
      return readFileSync(file, 'utf8').trim();
    };
    const digestA = await push(FIXTURE_IMAGE, '1');
    const digestB = await push(HOWDY, '2');
    rmSync(digestDir, { recursive: true, force: true });
    expect(digestA).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digestB).not.toBe(digestA);
    const imageA = `${repository}@${digestA}`;
    const imageB = `${repository}@${digestB}`;

    const servers = await apiClients(server, token).modelManagement.pricingServers();
    if (!servers.ok) throw new Error(servers.error);
    const runtime = (image: string) => ({
      type: 'container',
      image,
      gpu: servers.data[0]!.id,
      min_instances: 0,
      max_instances: 1,
      idle_timeout_s: 60,
    });
    const created = await rawApi(server, 'POST', '/v1/model_management/services', {
      token,
      body: { display_name: 'Rollback greeter', visibility: 'public', runtime: runtime(imageA) },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = String(created.json.id);
    const rollout = async () =>
      (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token })).json.rollout;
    const served = (image: string) =>
      expect.poll(rollout, { timeout: 90_000, interval: 500 }).toMatchObject({ image, status: 'succeeded' });
    const greet = async () => {
      const job = await rawApi(server, 'POST', '/v1/jobs', {
        token,
        body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
        headers: { Prefer: 'wait=30' },
      });
      expect(job.json, JSON.stringify(job.json)).toMatchObject({ status: 'FINISHED' });
      return (job.json.result as { text: string }).text;
    };
    const versions = async () => {
      const page = await rawApi(server, 'GET', `/v1/model_management/services/${id}/versions`, { token });
      expect(page.status, JSON.stringify(page.json)).toBe(200);
      return (page.json as unknown as { versions: Version[] }).versions;
    };

    await served(imageA);
    // Endpoints come from the container's /openapi.json once it is healthy.
    await expect.poll(greet, { timeout: 30_000 }).toBe('Hello, Ada.');

    const saved = await rawApi(server, 'PATCH', `/v1/model_management/services/${id}`, { token, body: { runtime: runtime(imageB) } });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    await served(imageB);
    expect(await greet()).toBe('Howdy, Ada.');

    const two = await versions();
    expect(two.map((v) => [v.digest, v.kind, v.outcome, v.current])).toEqual([
      [digestB, 'deploy', 'succeeded', true],
      [digestA, 'deploy', 'succeeded', false],
    ]);
    for (const v of two) {
      expect(v.deployed_by?.email).toBe(PUBLISHER.email);
      expect(Date.now() - Date.parse(v.deployed_at)).toBeLessThan(5 * 60_000);
    }

    const python = findServePython().python ?? '/usr/bin/python3';
    const env = { ...process.env, PYTHONPATH: SDK_PYTHON_PATH, LIMELIGHT_BASE_URL: server.url, LIMELIGHT_API_KEY: key };
    const listed = await run(python, ['-m', 'limelight', 'versions', '--service', id], env);
    expect(listed.status, listed.stderr).toBe(0);
    const rows = listed.stdout.split('\n');
    expect(rows[1]).toMatch(new RegExp(`^\\* ${digestB.slice(7, 19)} .* ${PUBLISHER.email} deploy succeeded$`));
    expect(rows[2]).toMatch(new RegExp(`^  ${digestA.slice(7, 19)} .* ${PUBLISHER.email} deploy succeeded$`));

    // By the first 8 hex digits of the first digest; the CLI waits for the rollout.
    const started = Date.now();
    const rolled = await run(python, ['-m', 'limelight', 'rollback', digestA.slice(7, 15), '--service', id, '--wait', '90'], env);
    const rollbackMs = Date.now() - started;
    expect(rolled.status, `${rolled.stdout}\n${rolled.stderr}`).toBe(0);
    expect(rolled.stdout).toContain(`rolled back: ${imageA} serves`);
    expect(await rollout()).toMatchObject({ image: imageA, status: 'succeeded' });
    expect(await greet()).toBe('Hello, Ada.');
    console.log(`limelight rollback to the first version: ${rollbackMs} ms until it served`);
    const three = await versions();
    expect(three.map((v) => [v.digest, v.kind, v.outcome, v.current])).toEqual([
      [digestA, 'rollback', 'succeeded', true],
      [digestB, 'deploy', 'succeeded', false],
      [digestA, 'deploy', 'succeeded', false],
    ]);

    // The second image, no longer any service's, is deleted from the registry: a rollback to it
    // is refused in words, and the first keeps serving.
    const deleted = await rawApi(server, 'DELETE', `/v1/registry/images/${REPOSITORY}/${encodeURIComponent(digestB)}`, { token: key });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);
    const refused = await run(python, ['-m', 'limelight', 'rollback', '--service', id, '--wait', '30'], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`is no longer in the platform's registry (it was deleted)`);
    expect(await greet()).toBe('Hello, Ada.');

    expect((await rawApi(server, 'DELETE', `/v1/model_management/services/${id}`, { token })).status).toBeLessThan(300);
    await expect.poll(() => t.engine.containersOf(id), { timeout: 30_000 }).toEqual([]);
  });
});
