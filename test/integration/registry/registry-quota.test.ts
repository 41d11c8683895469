// The platform registry's storage quota and image cap hold against the registry API itself
// (docs/publishing.md, "The platform's registry"; issue 47, findings 2 and 3). A publisher with
// one API key calls Distribution's API directly, as curl would: chunks written and never
// committed, empty upload sessions by the dozen, manifests by the megabyte, one token committing
// blob after blob, and a gzip layer of a few hundred KB that unpacks to more than the plan's image
// cap. Every sequence ends refused in the quota's or the cap's words, and the registry's storage
// never holds more than the quota. Skips with how to run it when Podman or docker-registry is missing.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import { startPlatformServer, type PlatformTestServer } from '../../../reference-app/server/testing';
import { REGISTRY_BINARY, MAX_OPEN_UPLOADS } from '../../../reference-app/server/registry';
import { freePort } from '../../bench/serverLaunch';
import { engineSkipReason, FIXTURE_IMAGE, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { confirmedUser, rawApi, signedIn } from '../helpers';

const registryMissing =
  spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)';
const skip = engineSkipReason() ?? registryMissing;
if (skip) console.warn(`registry quota tests skipped: ${skip}`);

const MiB = 1024 * 1024;
const QUOTA_MB = 8;
const IMAGE_MB = 64;
/** Long enough for the sessions below to be opened well inside it, even on a busy host. */
const IDLE_S = 8;
/** What may pass the quota: the registry's own bookkeeping of open uploads (start times, hash states), well under one chunk. */
const ONE_CHUNK = 64 * 1024;

/** Runs podman without blocking (the platform answering its token requests runs in this process). */
function podman(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('podman', args, { env: podmanEnv(), timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const digestOf = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Every file's bytes under a folder (0 when it does not exist). */
function bytesUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : statSync(full).size;
  }
  return total;
}

describe.skipIf(skip)("the platform registry's quota and image cap, against the registry API", () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  let host: string;
  const v2 = () => path.join(dataDir, 'registry', 'data', 'docker', 'registry', 'v2');

  /** What the namespace holds in the registry's storage: linked blobs (and manifests) and unfinished uploads. */
  function storedInNamespace(namespace: string): number {
    const repositories = path.join(v2(), 'repositories', namespace);
    const digests = new Set<string>();
    let uploads = 0;
    const walk = (dir: string) => {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (name === '_uploads') uploads += bytesUnder(full);
        else if (name === '_layers') readdirSync(path.join(full, 'sha256')).forEach((d) => digests.add(d));
        else if (name === '_manifests') {
          const revisions = path.join(full, 'revisions', 'sha256');
          if (existsSync(revisions)) readdirSync(revisions).forEach((d) => digests.add(d));
        } else if (statSync(full).isDirectory()) walk(full);
      }
    };
    walk(repositories);
    let blobs = 0;
    for (const hex of digests) blobs += statSync(path.join(v2(), 'blobs', 'sha256', hex.slice(0, 2), hex, 'data')).size;
    return blobs + uploads;
  }

  const publisher = async (label: string) => {
    const { session } = await signedIn(server, await confirmedUser(server, label));
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    const info = await rawApi(server, 'GET', '/v1/registry', { token: String(key.json.secret) });
    const namespace = String(info.json.namespace);
    const ask = (repo: string) =>
      fetch(`${server.url}/v1/registry/token?service=limelight-registry&scope=repository:${namespace}/${repo}:push,pull`, {
        headers: { Authorization: `Basic ${Buffer.from(`me:${String(key.json.secret)}`).toString('base64')}` },
      });
    /** One push token for `repo`, as a client gets it with the API key. */
    const token = async (repo: string) => {
      const answer = await ask(repo);
      expect(answer.status).toBe(200);
      return String(((await answer.json()) as { token: string }).token);
    };
    return { namespace, token, ask, apiKey: async () => String(key.json.secret) };
  };

  /** Calls the registry with a bearer token; answers the status, Location and the error text. */
  const call = async (token: string, method: string, url: string, body?: Buffer, contentType = 'application/octet-stream') => {
    const answer = await fetch(url.startsWith('http') ? url : `http://${host}${url}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': contentType } : {}) },
      ...(body ? { body: new Uint8Array(body) } : {}),
    }).catch((error: Error) => ({ status: 0, headers: new Headers(), text: async () => error.message }));
    return { status: answer.status, location: answer.headers.get('location') ?? '', text: await answer.text() };
  };

  const startUpload = async (token: string, repository: string) => {
    const started = await call(token, 'POST', `/v2/${repository}/blobs/uploads/`);
    expect(started.status, started.text).toBe(202);
    return started.location;
  };

  /** A whole blob in one session: POST, PATCH the bytes, PUT with the digest. */
  const pushBlob = async (token: string, repository: string, bytes: Buffer) => {
    const location = await startUpload(token, repository);
    const patched = await call(token, 'PATCH', location, bytes);
    if (patched.status !== 202) return patched;
    const url = new URL(patched.location);
    url.searchParams.set('digest', digestOf(bytes));
    return call(token, 'PUT', url.toString());
  };

  beforeAll(async () => {
    // The registry is part of container hosting, whose server wants its engine; no container runs here.
    t = await startTestEngine();
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-registry-quota-'));
    host = `127.0.0.1:${await freePort()}`;
    server = await startPlatformServer({
      dataDir,
      env: {
        CONTAINER_RUNNER: 'docker',
        DOCKER_HOST: t.dockerHost,
        PLATFORM_REGISTRY: 'on',
        PLATFORM_REGISTRY_ADDR: host,
        PLATFORM_REGISTRY_QUOTA_MB: String(QUOTA_MB),
        PLATFORM_REGISTRY_IMAGE_MB: String(IMAGE_MB),
        PLATFORM_REGISTRY_UPLOAD_IDLE_S: String(IDLE_S),
      },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('counts chunks that are never committed: the chunk that would pass the quota is refused and nothing past it is kept', async () => {
    const me = await publisher('quota-chunks');
    const token = await me.token('big');
    let location = await startUpload(token, `${me.namespace}/big`);
    const answers: number[] = [];
    let refusal = '';
    for (let i = 0; i < 3 * QUOTA_MB; i++) {
      const patched = await call(token, 'PATCH', location, Buffer.alloc(MiB, i));
      answers.push(patched.status);
      if (patched.status !== 202) {
        refusal = patched.text;
        break;
      }
      location = patched.location;
    }
    expect(answers.filter((s) => s === 202).length).toBeLessThanOrEqual(QUOTA_MB);
    expect(answers.at(-1)).toBe(403);
    expect(JSON.parse(refusal)).toMatchObject({ errors: [{ code: 'DENIED' }] });
    expect(refusal).toMatch(/Registry storage quota exceeded: .* and your free plan allows 8 MB/);
    await new Promise((r) => setTimeout(r, 500));
    expect(storedInNamespace(me.namespace)).toBeLessThanOrEqual(QUOTA_MB * MiB + ONE_CHUNK);

    // Several sessions at once, each a few chunks: together they stop at the quota too.
    const parallel = await me.token('parallel');
    const sessions = await Promise.all([1, 2, 3].map(() => startUpload(parallel, `${me.namespace}/parallel`)));
    const results = await Promise.all(
      sessions.map(async (start) => {
        let at = start;
        for (let i = 0; i < QUOTA_MB; i++) {
          const patched = await call(parallel, 'PATCH', at, Buffer.alloc(MiB, 7));
          if (patched.status !== 202) return patched.status;
          at = patched.location;
        }
        return 202;
      }),
    );
    expect(results.some((s) => s === 403)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(storedInNamespace(me.namespace)).toBeLessThanOrEqual(QUOTA_MB * MiB + ONE_CHUNK);
  });

  it('a Podman push past the quota fails with the quota in words, and nothing past the quota is kept', { timeout: 120_000 }, async () => {
    const me = await publisher('quota-podman');
    const key = await me.apiKey();
    // The fixture image is larger than the 8 MB quota: its layer is cut off while it streams.
    const pushed = await podman([
      'push',
      '--tls-verify=false',
      '--creds',
      `me:${key}`,
      FIXTURE_IMAGE,
      `docker://${host}/${me.namespace}/big:1`,
    ]);
    expect(pushed.status).not.toBe(0);
    expect(pushed.output).toMatch(
      /Registry storage quota exceeded: your images and unfinished uploads would use [\d.]+ MB and your free plan allows 8 MB/,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(storedInNamespace(me.namespace)).toBeLessThanOrEqual(QUOTA_MB * MiB + ONE_CHUNK);
  });

  it('caps open upload sessions per namespace and removes abandoned ones', { timeout: 60_000 }, async () => {
    const me = await publisher('quota-sessions');
    const token = await me.token('empty');
    // All at once: the sessions still being opened count too.
    const answers = await Promise.all(
      Array.from({ length: MAX_OPEN_UPLOADS + 8 }, () => call(token, 'POST', `/v2/${me.namespace}/empty/blobs/uploads/`)),
    );
    const statuses = answers.map((a) => a.status);
    const refusal = answers.find((a) => a.status !== 202)?.text ?? '';
    expect(statuses.filter((s) => s === 202)).toHaveLength(MAX_OPEN_UPLOADS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    expect(refusal).toMatch(/Too many unfinished uploads: your namespace has 32 open/);
    const uploads = path.join(v2(), 'repositories', me.namespace, 'empty', '_uploads');
    expect(readdirSync(uploads)).toHaveLength(MAX_OPEN_UPLOADS);

    // Untouched for PLATFORM_REGISTRY_UPLOAD_IDLE_S: removed from the storage, and the namespace may start again.
    await expect.poll(() => readdirSync(uploads).length, { timeout: 30_000, interval: 250 }).toBe(0);
    expect((await call(token, 'POST', `/v2/${me.namespace}/empty/blobs/uploads/`)).status).toBe(202);
  });

  it('counts manifests: many large manifests stop at the quota', async () => {
    const me = await publisher('quota-manifests');
    const token = await me.token('tags');
    const config = Buffer.from('{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}');
    expect((await pushBlob(token, `${me.namespace}/tags`, config)).status).toBe(201);
    const statuses: number[] = [];
    let refusal = '';
    for (let i = 0; i < 3 * QUOTA_MB; i++) {
      const manifest = JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(config), size: config.length },
        layers: [],
        annotations: { padding: `${i}`.padEnd(MiB, 'x') },
      });
      const put = await call(
        token,
        'PUT',
        `/v2/${me.namespace}/tags/manifests/t${i}`,
        Buffer.from(manifest),
        'application/vnd.oci.image.manifest.v1+json',
      );
      statuses.push(put.status);
      if (put.status !== 201) {
        refusal = put.text;
        break;
      }
    }
    expect(statuses.at(-1)).toBe(403);
    expect(refusal).toMatch(/Registry storage quota exceeded/);
    expect(storedInNamespace(me.namespace)).toBeLessThanOrEqual(QUOTA_MB * MiB + ONE_CHUNK);
  });

  it('enforces the quota on every byte one token commits, not only when the token is issued', async () => {
    const me = await publisher('quota-one-token');
    const token = await me.token('blobs');
    const statuses: number[] = [];
    let refusal = '';
    for (let i = 0; i < 3 * QUOTA_MB; i++) {
      const pushed = await pushBlob(token, `${me.namespace}/blobs`, Buffer.alloc(MiB, i + 1));
      statuses.push(pushed.status);
      if (pushed.status !== 201) {
        refusal = pushed.text;
        break;
      }
    }
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(QUOTA_MB);
    expect(statuses.at(-1)).toBe(403);
    expect(refusal).toMatch(/Registry storage quota exceeded: .*free plan allows 8 MB; delete images/);
    await new Promise((r) => setTimeout(r, 500));
    expect(storedInNamespace(me.namespace)).toBeLessThanOrEqual(QUOTA_MB * MiB + ONE_CHUNK);
    // The next token is refused outright once the namespace is full.
    const next = await me.ask('blobs');
    expect(next.status).toBe(403);
    expect(await next.text()).toMatch(/Registry storage quota exceeded: your images use 8\.0 MB/);
  });

  it('refuses a gzip layer while it streams once it unpacks past the image cap, and an image whose layers do together', async () => {
    const me = await publisher('quota-bomb');
    const token = await me.token('bomb');
    // A few hundred KB of gzip that unpacks to 2 × the cap of zeros.
    const bomb = gzipSync(Buffer.alloc(2 * IMAGE_MB * MiB), { level: 9 });
    expect(bomb.length).toBeLessThan(MiB);
    const refused = await pushBlob(token, `${me.namespace}/bomb`, bomb);
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(
      /Image too large: a layer unpacks to more than [\d.]+ MB and your free plan allows images of 64 MB unpacked/,
    );
    await new Promise((r) => setTimeout(r, 500));
    const uploads = path.join(v2(), 'repositories', me.namespace, 'bomb', '_uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);

    // Two layers under the cap each, over it together: the manifest naming both is refused.
    const half = (fill: number) => gzipSync(Buffer.alloc(40 * MiB, fill));
    const layers = [half(1), half(2)];
    for (const layer of layers) expect((await pushBlob(token, `${me.namespace}/bomb`, layer)).status).toBe(201);
    const config = Buffer.from('{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}');
    expect((await pushBlob(token, `${me.namespace}/bomb`, config)).status).toBe(201);
    const manifest = (names: Buffer[]) =>
      Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: digestOf(config), size: config.length },
          layers: names.map((l) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digestOf(l), size: l.length })),
        }),
      );
    const both = await call(
      token,
      'PUT',
      `/v2/${me.namespace}/bomb/manifests/both`,
      manifest(layers),
      'application/vnd.oci.image.manifest.v1+json',
    );
    expect(both.status).toBe(403);
    expect(both.text).toMatch(/Image too large: its layers unpack to more than 80\.0 MB .* 64 MB unpacked/);
    const one = await call(
      token,
      'PUT',
      `/v2/${me.namespace}/bomb/manifests/one`,
      manifest([layers[0]!]),
      'application/vnd.oci.image.manifest.v1+json',
    );
    expect(one.status, one.text).toBe(201);
  });
});
