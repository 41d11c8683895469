// A publisher's images in the platform's registry (docs/publishing.md, "Your images") on a real
// server with Debian's docker-registry and Podman: two tags pushed are listed with sizes and push
// times; deleting a tag that another tag shares only untags, deleting the last tag deletes the
// image; another user deletes nothing of it; the garbage collection that follows (read-only
// registry, `docker-registry garbage-collect`) frees the bytes, so the quota counts less; an image
// a container service is saved and deployed with is refused (409 naming the service) until the
// service is gone; `limelight images` lists them. Skips with how to run it when Podman or
// docker-registry is missing.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { SDK_PYTHON_PATH } from '../../setup/servePython';
import { startRegistryPlatform } from '../../setup/publishingPlatform';
import { apiClients, confirmedUser, rawApi, signedIn } from '../helpers';

const registryMissing =
  spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)';
const skip = engineSkipReason() ?? registryMissing;
if (skip) console.warn(`registry image tests skipped: ${skip}`);

/** Two small images with a layer each of incompressible bytes (1.5 MB and 1 MB), so freeing one shows. */
const ONE = 'localhost/limelight-images-test:one';
const TWO = 'localhost/limelight-images-test:two';

function run(command: string, args: string[], env: NodeJS.ProcessEnv = podmanEnv()): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const push = (local: string, image: string, password: string) =>
  run('podman', ['push', '--quiet', '--tls-verify=false', '--creds', `anyone:${password}`, local, `docker://${image}`]);

interface Listing {
  host: string;
  namespace: string;
  used_bytes: number;
  quota_bytes: number;
  garbage_collection: { pending: boolean; last: { gc_ms: number; read_only_ms: number; blobs_deleted: number } | null };
  repositories: {
    name: string;
    images: { digest: string; tags: string[]; size_bytes: number; pushed_at: string; used_by: { id: string; name: string }[] }[];
  }[];
}

describe.skipIf(skip)("deleting images from the platform's registry", () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  let host: string;

  const userWithKey = async (label: string) => {
    const { session } = await signedIn(server, await confirmedUser(server, label));
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    const info = await rawApi(server, 'GET', '/v1/registry', { token: String(key.json.secret) });
    return { token: session.access_token, apiKey: String(key.json.secret), namespace: String(info.json.namespace) };
  };
  const list = async (key: string) => {
    const answer = await rawApi(server, 'GET', '/v1/registry/images', { token: key });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return answer.json as unknown as Listing;
  };
  const del = (key: string, what: string) => rawApi(server, 'DELETE', `/v1/registry/images/${what}`, { token: key });
  const blobExists = (digest: string) =>
    existsSync(
      path.join(dataDir, 'registry', 'data', 'docker', 'registry', 'v2', 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7), 'data'),
    );

  beforeAll(async () => {
    t = await startTestEngine();
    for (const [image, bytes] of [
      [ONE, 1_536 * 1024],
      [TWO, 1_024 * 1024],
    ] as const) {
      const context = mkdtempSync(path.join(tmpdir(), 'limelight-images-'));
      writeFileSync(path.join(context, 'noise'), randomBytes(bytes));
      writeFileSync(path.join(context, 'Containerfile'), 'FROM scratch\nCOPY noise /noise\n');
      execFileSync('podman', ['build', '--quiet', '-t', image, context], { env: podmanEnv(), stdio: 'ignore' });
      rmSync(context, { recursive: true, force: true });
    }
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-images-test-'));
    ({ server, host } = await startRegistryPlatform(t, dataDir, { PLATFORM_REGISTRY_QUOTA_MB: '1024' }));
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    for (const image of [ONE, TWO]) await run('podman', ['rmi', '--force', image]);
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(
    'lists two tags, untags, deletes, refuses another user, and the collection frees the bytes from the quota',
    { timeout: 240_000 },
    async () => {
      const owner = await userWithKey('images-owner');
      const other = await userWithKey('images-other');
      const tool = `${host}/${owner.namespace}/tool`;
      for (const [local, tag] of [
        [ONE, '1'],
        [TWO, '2'],
        [TWO, 'latest'],
      ] as const) {
        const pushed = await push(local, `${tool}:${tag}`, owner.apiKey);
        expect(pushed.status, pushed.output).toBe(0);
      }

      const before = await list(owner.apiKey);
      expect(before).toMatchObject({ host, namespace: owner.namespace, quota_bytes: 1024 * 1024 * 1024 });
      expect(before.repositories.map((r) => r.name)).toEqual(['tool']);
      const [newest, oldest] = before.repositories[0]!.images;
      expect(newest).toMatchObject({ tags: ['2', 'latest'], used_by: [] });
      expect(oldest).toMatchObject({ tags: ['1'], used_by: [] });
      expect(oldest!.size_bytes).toBeGreaterThan(1_536 * 1024);
      expect(newest!.size_bytes).toBeGreaterThan(1_024 * 1024);
      expect(newest!.size_bytes).toBeLessThan(oldest!.size_bytes);
      expect(Date.parse(newest!.pushed_at)).toBeGreaterThan(Date.now() - 5 * 60_000);
      expect(before.used_bytes).toBeGreaterThan(2_560 * 1024);

      // Another user: the name is taken under their own namespace, where there is no such image,
      // and their listing shows nothing of the owner's.
      expect((await del(other.apiKey, 'tool/1')).status).toBe(404);
      expect((await del(other.apiKey, 'tool')).status).toBe(404);
      expect((await list(other.apiKey)).repositories).toEqual([]);
      // Nor does their registry token carry delete on the owner's repository.
      const token = await fetch(
        `${server.url}/v1/registry/token?service=limelight-registry&scope=repository:${owner.namespace}/tool:delete`,
        {
          headers: { Authorization: `Basic ${Buffer.from(`x:${other.apiKey}`).toString('base64')}` },
        },
      );
      const claims = JSON.parse(Buffer.from(((await token.json()) as { token: string }).token.split('.')[1]!, 'base64url').toString()) as {
        access: unknown[];
      };
      expect(claims.access).toEqual([]);

      // A tag another tag shares: only the tag goes.
      const untag = await del(owner.apiKey, 'tool/latest');
      expect(untag.json).toMatchObject({ deleted_digests: [], untagged: ['latest'], repository_deleted: false });
      // Bad input is said in words.
      const bad = await del(owner.apiKey, 'tool/no%20such');
      expect(bad.status).toBe(422);
      expect(String(bad.json.detail)).toMatch(/neither a tag .* nor a digest/);
      expect((await del(owner.apiKey, 'tool/9')).status).toBe(404);

      // The last tag of an image: the image goes.
      const gone = await del(owner.apiKey, 'tool/1');
      expect(gone.status, JSON.stringify(gone.json)).toBe(200);
      expect(gone.json).toMatchObject({ deleted_digests: [oldest!.digest], untagged: ['1'] });
      const after = await list(owner.apiKey);
      expect(after.repositories[0]!.images.map((i) => [i.digest, i.tags])).toEqual([[newest!.digest, ['2']]]);
      expect(after.garbage_collection.pending).toBe(true);
      expect(
        (await run('podman', ['pull', '--quiet', '--tls-verify=false', '--creds', `x:${owner.apiKey}`, `docker://${tool}:1`])).status,
      ).not.toBe(0);

      // The collection runs a few seconds later: the bytes leave the storage and the quota.
      await expect.poll(async () => (await list(owner.apiKey)).garbage_collection.pending, { timeout: 60_000, interval: 500 }).toBe(false);
      const collected = await list(owner.apiKey);
      expect(collected.garbage_collection.last?.blobs_deleted).toBeGreaterThanOrEqual(3);
      expect(collected.used_bytes).toBeLessThan(before.used_bytes - 1_536 * 1024);
      expect(blobExists(oldest!.digest)).toBe(false);
      expect(blobExists(newest!.digest)).toBe(true);
      console.log(
        `garbage collection: ${collected.garbage_collection.last?.gc_ms} ms; pushes refused for ${collected.garbage_collection.last?.read_only_ms} ms; ` +
          `quota use ${before.used_bytes} → ${collected.used_bytes} bytes`,
      );
      // What is left still pulls, and the registry takes pushes again.
      const pulled = await run('podman', ['pull', '--quiet', '--tls-verify=false', '--creds', `x:${owner.apiKey}`, `docker://${tool}:2`]);
      expect(pulled.status, pulled.output).toBe(0);
      await run('podman', ['rmi', '--force', `${tool}:2`]);
      expect((await push(ONE, `${tool}:1`, owner.apiKey)).status).toBe(0);

      // `limelight images` lists the same.
      const cli = await run('/usr/bin/python3', ['-m', 'limelight', 'images'], {
        ...process.env,
        PYTHONPATH: SDK_PYTHON_PATH,
        LIMELIGHT_BASE_URL: server.url,
        LIMELIGHT_API_KEY: owner.apiKey,
      });
      expect(cli.status, cli.output).toBe(0);
      expect(cli.output).toMatch(new RegExp(`^tool\\s+2\\s+${newest!.digest.slice(0, 19)}\\s+1\\.0 MB`, 'm'));
      expect(cli.output).toMatch(/^tool\s+1\s+sha256:/m);
    },
  );

  it(
    'refuses to delete an image a container service is deployed on, naming it, until the service is gone',
    { timeout: 240_000 },
    async () => {
      const owner = await userWithKey('images-deployed');
      const image = `${host}/${owner.namespace}/greeter:1`;
      expect((await push(FIXTURE_IMAGE, image, owner.apiKey)).status).toBe(0);
      const api = apiClients(server, owner.token);
      const servers = await api.modelManagement.pricingServers();
      if (!servers.ok) throw new Error(servers.error);
      const created = await api.services.create({
        display_name: 'Deployed greeter',
        visibility: 'public',
        runtime: { type: 'container', image, gpu: servers.data[0]!.id, min_instances: 0, max_instances: 1, idle_timeout_s: 60 },
      });
      if (!created.ok) throw new Error(JSON.stringify(created));
      const id = created.data.id;
      await expect
        .poll(
          async () =>
            (await rawApi(server, 'GET', `/v1/model_management/model_hosting_information?model_id=${id}`, { token: owner.token })).json
              .status,
          { timeout: 90_000, interval: 500 },
        )
        .toBe('running');

      const listed = await list(owner.apiKey);
      const deployed = listed.repositories[0]!.images[0]!;
      expect(deployed.used_by).toEqual([{ id, name: 'Deployed greeter' }]);
      for (const what of ['greeter/1', `greeter/${deployed.digest}`, 'greeter']) {
        const refused = await del(owner.apiKey, what);
        expect(refused.status, what).toBe(409);
        expect(String(refused.json.detail)).toMatch(/is the image of your service "Deployed greeter": point the service at another image/);
      }
      expect((await list(owner.apiKey)).repositories[0]!.images[0]!.digest).toBe(deployed.digest);

      expect((await api.services.remove(id)).ok).toBe(true);
      const removed = await del(owner.apiKey, 'greeter');
      expect(removed.status, JSON.stringify(removed.json)).toBe(200);
      expect(removed.json).toMatchObject({ deleted_digests: [deployed.digest], repository_deleted: true });
      expect((await list(owner.apiKey)).repositories).toEqual([]);
    },
  );

  it("the quota's refusal says how to delete images", async () => {
    const full = await userWithKey('images-full');
    // 1.5 GB already stored in the namespace, in the registry's own layout (a sparse file).
    const hex = 'cd'.repeat(32);
    const v2 = path.join(dataDir, 'registry', 'data', 'docker', 'registry', 'v2');
    mkdirSync(path.join(v2, 'repositories', full.namespace, 'big', '_layers', 'sha256', hex), { recursive: true });
    writeFileSync(path.join(v2, 'repositories', full.namespace, 'big', '_layers', 'sha256', hex, 'link'), `sha256:${hex}`);
    mkdirSync(path.join(v2, 'blobs', 'sha256', 'cd', hex), { recursive: true });
    writeFileSync(path.join(v2, 'blobs', 'sha256', 'cd', hex, 'data'), '');
    truncateSync(path.join(v2, 'blobs', 'sha256', 'cd', hex, 'data'), 1536 * 1024 * 1024);
    const refused = await fetch(
      `${server.url}/v1/registry/token?service=limelight-registry&scope=repository:${full.namespace}/next:push,pull`,
      {
        headers: { Authorization: `Basic ${Buffer.from(`x:${full.apiKey}`).toString('base64')}` },
      },
    );
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /delete images \(`limelight images rm NAME\[:TAG\]`, or Account → Hosting → Your images\) or change plan$/,
    );
  });
});
