// Image size checked before the engine pulls from another registry (issue 47, finding 3;
// docs/publishing.md, "Image size"), on the real engine (Podman's Docker API) and a real htpasswd
// registry that is not the platform's: a few KB of gzipped zeros that unpack past the plan's cap
// are refused before the engine is asked to pull, so nothing is written to the host's disk; an
// image within the cap deploys, pulled by the digest that was counted, and a redeploy downloads
// no layer again. Skips with how to run it when Podman or docker-registry is missing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Deployment, type DeploymentSpec, type RegistryAuth, hostPlatform, PullCheck } from '../../../reference-app/server/hosting';
import { deploymentSpec, hostingSkipReason, useHosting } from './hostingSetup';

const skip = hostingSkipReason();
if (skip) console.warn(`pull check tests skipped: ${skip}`);

const MiB = 1024 * 1024;
const sha = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** A tar of one file of `mb` MB of zeros, as a layer's uncompressed bytes. */
function zerosTar(mb: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'limelight-zeros-'));
  try {
    writeFileSync(path.join(dir, 'zeros'), '');
    truncateSync(path.join(dir, 'zeros'), mb * MiB);
    execFileSync('tar', ['-cf', path.join(dir, 'layer.tar'), '-C', dir, 'zeros']);
    return readFileSync(path.join(dir, 'layer.tar'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pushes a one-layer image through the registry's v2 API (basic auth); returns its reference and manifest digest. */
async function pushOneLayerImage(registry: { host: string; username: string; password: string }, name: string, tar: Buffer) {
  const authorization = `Basic ${Buffer.from(`${registry.username}:${registry.password}`).toString('base64')}`;
  const base = `http://${registry.host}`;
  const repository = name.split(':')[0]!;
  const upload = async (bytes: Buffer) => {
    const started = await fetch(`${base}/v2/${repository}/blobs/uploads/`, { method: 'POST', headers: { authorization } });
    expect(started.status).toBe(202);
    const location = new URL(started.headers.get('location')!, base);
    location.searchParams.set('digest', sha(bytes));
    const put = await fetch(location, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(201);
    return { digest: sha(bytes), size: bytes.length };
  };
  const layer = gzipSync(tar, { level: 9 });
  const config = Buffer.from(
    JSON.stringify({
      architecture: hostPlatform().architecture,
      os: 'linux',
      config: { Cmd: ['/zeros'] },
      rootfs: { type: 'layers', diff_ids: [sha(tar)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', ...(await upload(config)) },
      layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', ...(await upload(layer)) }],
    }),
  );
  const put = await fetch(`${base}/v2/${repository}/manifests/${name.split(':')[1]}`, {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/vnd.docker.distribution.manifest.v2+json' },
    body: new Uint8Array(manifest),
  });
  expect(put.status).toBe(201);
  return { image: `${registry.host}/${name}`, digest: sha(manifest), compressedBytes: layer.length };
}

describe.skipIf(skip)('image size checked before the pull from another registry (Podman, docker-registry)', () => {
  const h = useHosting('pullcheck:1');
  const open: Deployment[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.stop()));
  });
  /** What the engine pulled (by digest, untagged): removed before the engine stops (hooks run in reverse). */
  const pulled = new Set<string>();
  afterAll(async () => {
    for (const image of pulled) await h.t?.engine.removeImage(image);
  });

  let bomb: { image: string; digest: string; compressedBytes: number };
  beforeAll(async () => {
    // 64 MB of zeros in one layer: about 64 KB pushed, against a cap of 10 MB.
    bomb = await pushOneLayerImage(h.registry, 'bomb:1', zerosTar(64));
  }, 60_000);

  /** A Deployment with the check, whose engine records every pull it is asked for. */
  const deployWatched = (spec: DeploymentSpec, check: PullCheck) => {
    const pulls: string[] = [];
    const engine = Object.create(h.t.engine) as typeof h.t.engine;
    engine.pull = (image: string, auth?: RegistryAuth, timeoutMs?: number) => {
      pulls.push(image);
      pulled.add(image);
      return h.t.engine.pull(image, auth, timeoutMs);
    };
    // Methods that use the engine's #private fields run on the engine itself.
    engine.create = (instance) => h.t.engine.create(instance);
    engine.ensureNetwork = (id) => h.t.engine.ensureNetwork(id);
    const deployment = new Deployment(engine, spec, { readyTimeoutMs: 15_000, pullCheck: check });
    open.push(deployment);
    return { deployment, pulls };
  };

  it('refuses a gzip bomb over the cap before the engine pulls any of it', async () => {
    expect(bomb.compressedBytes).toBeLessThan(MiB);
    const spec = deploymentSpec(h, 'bomb', { image: bomb.image, imageMaxMb: 10, minInstances: 1 });
    const { deployment, pulls } = deployWatched(spec, new PullCheck());
    const report = await deployment.deploy();
    expect(report.status).toBe('failed');
    expect(report.message).toMatch(/The image is more than 1\d MB unpacked; this plan allows 10 MB/);
    expect(pulls).toEqual([]);
    // Nothing of it is in the engine: neither the tag nor the manifest that was counted.
    expect(await h.t.engine.hasImage(bomb.image)).toBe(false);
    expect(await h.t.engine.hasImage(`${h.registry.host}/bomb@${bomb.digest}`)).toBe(false);
  }, 60_000);

  it('deploys an image within the cap, pulled by the digest counted; a redeploy downloads no layer again', async () => {
    const blobGets: string[] = [];
    const counting: typeof fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).includes('/blobs/')) blobGets.push(String(input));
      return fetch(input, init);
    };
    const spec = deploymentSpec(h, 'fits', { imageMaxMb: 4096, minInstances: 1 });
    const { deployment, pulls } = deployWatched(spec, new PullCheck({ fetch: counting }));
    const report = await deployment.deploy();
    expect(report.status, report.message).toBe('running');
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatch(new RegExp(`^${h.registry.host.replace(/\./g, '\\.')}/pullcheck@sha256:[0-9a-f]{64}$`));
    const downloaded = blobGets.length;
    expect(downloaded).toBeGreaterThan(0);
    // A change that rolls the instances pulls again: the manifest is read, no layer.
    const rolled = await deployment.update({ ...spec, instance: { ...spec.instance, env: { ROLLED: '1' } } });
    expect(rolled.rollout?.status, rolled.message).toBe('succeeded');
    expect(pulls).toHaveLength(2);
    expect(blobGets.length).toBe(downloaded);
  }, 120_000);
});
