// The platform's own registry (docs/publishing.md, "The platform's registry") on a real server
// with the runner on: Debian's docker-registry beside it with token auth served by the platform,
// pushed to and pulled from with Podman. A publisher pushes to their own namespace with an API
// key and pulls it back; nobody pushes into another's namespace or pulls without a token; a
// namespace over its storage quota gets the quota's words; a container service on a platform
// image deploys with no stored credential and stays on the digest it deployed when the tag is
// pushed again. Skips with how to run it when Podman or docker-registry is missing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import { DEPLOYMENT_LABEL } from '../../../reference-app/server/hosting';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { startRegistryPlatform } from '../../setup/publishingPlatform';
import { apiClients, confirmedUser, rawApi, signedIn } from '../helpers';

const registryMissing =
  spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)';
const skip = engineSkipReason() ?? registryMissing;
if (skip) console.warn(`platform registry tests skipped: ${skip}`);

const VARIANT_IMAGE = 'localhost/limelight-fixture:variant';

/**
 * Runs podman without blocking: the platform answering its token requests runs in this process.
 * Returns its exit status and what it printed (never throws).
 */
function podman(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('podman', args, { env: podmanEnv(), timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const push = (local: string, image: string, password?: string) =>
  podman(['push', '--quiet', '--tls-verify=false', ...(password ? ['--creds', `anyone:${password}`] : []), local, `docker://${image}`]);
const pull = (image: string, password?: string) =>
  podman(['pull', '--quiet', '--tls-verify=false', ...(password ? ['--creds', `anyone:${password}`] : []), `docker://${image}`]);

describe.skipIf(skip)("the platform's registry (docker-registry with the platform's token auth)", () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  let host: string;
  const pulledImages: string[] = [];

  const userWithKey = async (label: string) => {
    const { session } = await signedIn(server, await confirmedUser(server, label));
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    expect(key.status).toBe(200);
    const info = await rawApi(server, 'GET', '/v1/registry', { token: String(key.json.secret) });
    expect(info.status).toBe(200);
    return {
      token: session.access_token,
      apiKey: String(key.json.secret),
      namespace: String(info.json.namespace),
      userId: session.user.id,
    };
  };

  beforeAll(async () => {
    t = await startTestEngine();
    // A second image under the same tag later: the fixture with one more label (another digest).
    const context = mkdtempSync(path.join(tmpdir(), 'limelight-variant-'));
    writeFileSync(path.join(context, 'Containerfile'), `FROM ${FIXTURE_IMAGE}\nLABEL limelight.test.variant=2\n`);
    execFileSync('podman', ['build', '--quiet', '-t', VARIANT_IMAGE, context], { env: podmanEnv(), stdio: 'ignore' });
    rmSync(context, { recursive: true, force: true });
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-registry-test-'));
    ({ server, host } = await startRegistryPlatform(t, dataDir, { PLATFORM_REGISTRY_QUOTA_MB: '1024' }));
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    for (const image of [...pulledImages, VARIANT_IMAGE]) await podman(['rmi', '--force', image]);
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('tells a signed-in caller where to push, and answers 401 to a token request without credentials', async () => {
    const me = await userWithKey('registry-info');
    const info = await rawApi(server, 'GET', '/v1/registry', { token: me.token });
    expect(info.json).toMatchObject({ host, namespace: me.namespace });
    expect(me.namespace).toMatch(/^registry-info[a-z0-9-]*-[0-9a-f]{12}$/);
    const anonymous = await fetch(`${server.url}/v1/registry/token?service=limelight-registry&scope=repository:${me.namespace}/x:pull`);
    expect(anonymous.status).toBe(401);
    // The registry itself sends clients to the platform's token endpoint.
    const challenge = await fetch(`http://${host}/v2/`);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toContain(`Bearer realm="${server.url}/v1/registry/token"`);
  });

  it(
    'the owner pushes and pulls with an API key; another user cannot push into it; nobody pulls without a token',
    { timeout: 240_000 },
    async () => {
      const owner = await userWithKey('registry-owner');
      const other = await userWithKey('registry-other');
      const image = `${host}/${owner.namespace}/greeter:1`;

      const pushed = await push(FIXTURE_IMAGE, image, owner.apiKey);
      expect(pushed.status, pushed.output).toBe(0);

      const intruder = await push(FIXTURE_IMAGE, `${host}/${owner.namespace}/greeter:evil`, other.apiKey);
      expect(intruder.status).not.toBe(0);
      expect(intruder.output).toMatch(/denied|unauthorized|authentication required/i);
      // The session's access token is a password too; still not for another's namespace.
      expect((await push(FIXTURE_IMAGE, `${host}/${owner.namespace}/greeter:evil`, other.token)).status).not.toBe(0);

      const anonymous = await pull(image);
      expect(anonymous.status).not.toBe(0);
      expect(anonymous.output).toMatch(/unauthorized|authentication required|denied/i);
      expect((await pull(image, other.apiKey)).status, 'another user cannot pull it either').not.toBe(0);

      const mine = await pull(image, owner.apiKey);
      expect(mine.status, mine.output).toBe(0);
      pulledImages.push(image);
    },
  );

  it("refuses a push once the namespace's images exceed the plan's storage, with the quota in words", { timeout: 120_000 }, async () => {
    const full = await userWithKey('registry-full');
    // 1.5 GB of layers already stored in the namespace, in the registry's own layout (a sparse file).
    const hex = 'ab'.repeat(32);
    const v2 = path.join(dataDir, 'registry', 'data', 'docker', 'registry', 'v2');
    mkdirSync(path.join(v2, 'repositories', full.namespace, 'big', '_layers', 'sha256', hex), { recursive: true });
    writeFileSync(path.join(v2, 'repositories', full.namespace, 'big', '_layers', 'sha256', hex, 'link'), `sha256:${hex}`);
    mkdirSync(path.join(v2, 'blobs', 'sha256', 'ab', hex), { recursive: true });
    writeFileSync(path.join(v2, 'blobs', 'sha256', 'ab', hex, 'data'), '');
    truncateSync(path.join(v2, 'blobs', 'sha256', 'ab', hex, 'data'), 1536 * 1024 * 1024);

    const scope = `repository:${full.namespace}/next:push,pull`;
    const auth = `Basic ${Buffer.from(`anyone:${full.apiKey}`).toString('base64')}`;
    const refused = await fetch(`${server.url}/v1/registry/token?service=limelight-registry&scope=${scope}`, {
      headers: { Authorization: auth },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /storage quota exceeded: your images use 1536\.0 MB and your free plan allows 1024 MB/i,
    );
    const pushed = await push(FIXTURE_IMAGE, `${host}/${full.namespace}/next:1`, full.apiKey);
    expect(pushed.status).not.toBe(0);
    // Pulling what they have stays allowed.
    const pullOnly = await fetch(`${server.url}/v1/registry/token?service=limelight-registry&scope=repository:${full.namespace}/big:pull`, {
      headers: { Authorization: auth },
    });
    expect(pullOnly.status).toBe(200);
  });

  it(
    'deploys a platform image without a stored credential and keeps its digest when the tag is pushed again',
    { timeout: 240_000 },
    async () => {
      const owner = await userWithKey('registry-deploy');
      const image = `${host}/${owner.namespace}/greeter:1`;
      expect((await push(FIXTURE_IMAGE, image, owner.apiKey)).status).toBe(0);
      pulledImages.push(image);
      const api = apiClients(server, owner.token);
      const servers = await api.modelManagement.pricingServers();
      if (!servers.ok) throw new Error(servers.error);
      const created = await api.services.create({
        display_name: `Registry greeter ${owner.namespace}`,
        visibility: 'public',
        runtime: { type: 'container', image, gpu: servers.data[0]!.id, min_instances: 0, max_instances: 1, idle_timeout_s: 60 },
      });
      if (!created.ok) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      const hosting = async () =>
        (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token: owner.token })).json;
      await expect.poll(async () => (await hosting()).status, { timeout: 90_000, interval: 500 }).toBe('running');

      const runningImages = async () => {
        const list = await t.engine.docker.listContainers({ all: true, filters: { label: [`${DEPLOYMENT_LABEL}=${id}`] } });
        return [...new Set(list.map((c) => c.ImageID))];
      };
      await expect
        .poll(async () => {
          const service = await api.services.get(id);
          return service.ok ? service.data.endpoints.map((e) => e.path) : [];
        })
        .toEqual(['/greet']);
      const deployed = await runningImages();
      expect(deployed).toHaveLength(1);

      // The tag now names another image; the deployment keeps the digest it pulled.
      expect((await push(VARIANT_IMAGE, image, owner.apiKey)).status).toBe(0);
      const job = await rawApi(server, 'POST', '/v1/jobs', {
        token: owner.token,
        body: { service_id: id, endpoint: '/greet', input: { name: 'Ada' } },
        headers: { Prefer: 'wait=30' },
      });
      expect(job.json).toMatchObject({ status: 'FINISHED', result: { text: 'Hello, Ada.' } });
      expect(await runningImages()).toEqual(deployed);

      const removed = await api.services.remove(id);
      expect(removed.ok).toBe(true);
    },
  );
});
