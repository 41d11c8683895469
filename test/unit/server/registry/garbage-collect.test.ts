// The platform registry's garbage collection (reference-app/server/registry/garbageCollect.ts;
// docs/publishing.md, "Your images") on a storage tree laid out as docker-registry lays it out: the
// links no remaining manifest names are pruned (quota.ts counts them), a repository left empty
// goes, a push under way postpones the collection, deletes in a row make one collection, and
// Distribution's own collector removes the blobs of the deleted manifest and keeps the others.
import { createHash, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GarbageCollector, pruneRepository, pushInFlight } from '../../../../reference-app/server/registry/garbageCollect';
import { repositoryNames } from '../../../../reference-app/server/registry/images';
import { storedBytes } from '../../../../reference-app/server/registry/quota';
import { REGISTRY_BINARY } from '../../../../reference-app/server/registry/supervisor';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** A storage directory with `ns/app`: manifest OLD (config and layer) and NEW (config and layer), tags 1 → OLD, 2 → NEW. */
function storage() {
  const root = mkdtempSync(path.join(tmpdir(), 'limelight-gc-'));
  dirs.push(root);
  const v2 = path.join(root, 'docker', 'registry', 'v2');
  const blob = (data: Buffer | string) => {
    const digest = sha(data);
    const dir = path.join(v2, 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'data'), data);
    return digest;
  };
  const link = (file: string, digest: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, digest);
  };
  const repo = (name: string) => path.join(v2, 'repositories', name);
  const image = (name: string, tag: string, layerBytes: number) => {
    const config = blob(JSON.stringify({ architecture: 'amd64', tag }));
    const layer = blob(randomBytes(layerBytes));
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: config,
        size: Buffer.byteLength(JSON.stringify({ architecture: 'amd64', tag })),
      },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layer, size: layerBytes }],
    });
    const digest = blob(manifest);
    for (const d of [config, layer]) link(path.join(repo(name), '_layers', 'sha256', d.slice(7), 'link'), d);
    link(path.join(repo(name), '_manifests', 'revisions', 'sha256', digest.slice(7), 'link'), digest);
    link(path.join(repo(name), '_manifests', 'tags', tag, 'current', 'link'), digest);
    return { config, layer, digest };
  };
  const old = image('ns/app', '1', 4096);
  const fresh = image('ns/app', '2', 2048);
  /** What a manifest DELETE leaves: the revision's directory without its link, no tag. */
  const deleteManifest = (name: string, digest: string, tag: string) => {
    rmSync(path.join(repo(name), '_manifests', 'revisions', 'sha256', digest.slice(7), 'link'));
    rmSync(path.join(repo(name), '_manifests', 'tags', tag), { recursive: true });
  };
  const blobExists = (digest: string) => existsSync(path.join(v2, 'blobs', 'sha256', digest.slice(7, 9), digest.slice(7), 'data'));
  const age = (file: string) => utimesSync(file, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
  return { root, v2, repo, image, old, fresh, deleteManifest, blobExists, age, link };
}

describe("the registry's garbage collection", () => {
  it('prunes the links and the revision a deleted manifest leaves, so the quota counts only what is left', async () => {
    const s = storage();
    const before = await storedBytes(s.root, 'ns');
    s.deleteManifest('ns/app', s.old.digest, '1');
    await pruneRepository(s.root, 'ns/app');
    expect(readdirSync(path.join(s.repo('ns/app'), '_layers', 'sha256')).sort()).toEqual(
      [s.fresh.config, s.fresh.layer].map((d) => d.slice(7)).sort(),
    );
    expect(readdirSync(path.join(s.repo('ns/app'), '_manifests', 'revisions', 'sha256'))).toEqual([s.fresh.digest.slice(7)]);
    expect(await storedBytes(s.root, 'ns')).toBeLessThan(before - 4096);
  });

  it('removes a repository left with nothing, and the directories it leaves empty, never a nested one', async () => {
    const s = storage();
    const nested = s.image('ns/app/tools', 'x', 100);
    s.deleteManifest('ns/app', s.old.digest, '1');
    s.deleteManifest('ns/app', s.fresh.digest, '2');
    await pruneRepository(s.root, 'ns/app');
    expect(readdirSync(s.repo('ns/app'))).toEqual(['tools']);
    expect(await repositoryNames(s.root, 'ns')).toEqual(['app/tools']);
    s.deleteManifest('ns/app/tools', nested.digest, 'x');
    await pruneRepository(s.root, 'ns/app/tools');
    expect(existsSync(s.repo('ns/app'))).toBe(false);
    expect(existsSync(s.repo('ns'))).toBe(true);
  });

  it('sees a push under way: an upload written to, or a layer linked that no manifest names yet', async () => {
    const s = storage();
    for (const d of [s.old, s.fresh])
      for (const b of [d.config, d.layer]) s.age(path.join(s.repo('ns/app'), '_layers', 'sha256', b.slice(7), 'link'));
    expect(await pushInFlight(s.root, 15_000)).toBe(false);
    // A layer just linked that a manifest names: a finished push.
    s.link(path.join(s.repo('ns/app'), '_layers', 'sha256', s.old.layer.slice(7), 'link'), s.old.layer);
    expect(await pushInFlight(s.root, 15_000)).toBe(false);
    // One no manifest names yet: its manifest is still to come.
    const orphan = sha('not yet');
    s.link(path.join(s.repo('ns/app'), '_layers', 'sha256', orphan.slice(7), 'link'), orphan);
    expect(await pushInFlight(s.root, 15_000)).toBe(true);
    s.age(path.join(s.repo('ns/app'), '_layers', 'sha256', orphan.slice(7), 'link'));
    expect(await pushInFlight(s.root, 15_000)).toBe(false);
    // An upload being written.
    mkdirSync(path.join(s.repo('ns/other'), '_uploads', 'u1'), { recursive: true });
    writeFileSync(path.join(s.repo('ns/other'), '_uploads', 'u1', 'data'), 'chunk');
    mkdirSync(path.join(s.repo('ns/other'), '_manifests'), { recursive: true });
    expect(await pushInFlight(s.root, 15_000)).toBe(true);
  });

  it.skipIf(spawnSync(REGISTRY_BINARY, ['--version']).status !== 0)(
    'collects once for deletes in a row, waits for a push under way, and frees the deleted blobs with docker-registry',
    async () => {
      const s = storage();
      const config = path.join(s.root, 'config.yml');
      writeFileSync(
        config,
        `version: 0.1\nstorage: { filesystem: { rootdirectory: ${JSON.stringify(s.root)} }, delete: { enabled: true } }\n`,
      );
      const windows: number[] = [];
      const collector = new GarbageCollector({
        storageDir: s.root,
        whileReadOnly: async (work) => {
          windows.push(Date.now());
          return work(config);
        },
        debounceMs: 100,
        minIntervalMs: 0,
        quietMs: 600,
        maxWaitMs: 10_000,
      });
      // An upload written to just now: the collection waits until it has been quiet for quietMs.
      mkdirSync(path.join(s.repo('ns/busy'), '_uploads', 'u1'), { recursive: true });
      mkdirSync(path.join(s.repo('ns/busy'), '_manifests'), { recursive: true });
      writeFileSync(path.join(s.repo('ns/busy'), '_uploads', 'u1', 'data'), 'chunk');
      const scheduled = Date.now();
      s.deleteManifest('ns/app', s.old.digest, '1');
      collector.schedule('ns/app');
      collector.schedule('ns/app');
      expect(collector.pending).toBe(true);
      await expect.poll(() => collector.pending, { timeout: 10_000, interval: 50 }).toBe(false);
      expect(windows).toHaveLength(1);
      expect(windows[0]! - scheduled).toBeGreaterThanOrEqual(500);
      expect(collector.last).toMatchObject({ blobs_deleted: 3, repositories: 1 });
      for (const gone of [s.old.digest, s.old.config, s.old.layer]) expect(s.blobExists(gone)).toBe(false);
      for (const kept of [s.fresh.digest, s.fresh.config, s.fresh.layer]) expect(s.blobExists(kept)).toBe(true);
      await collector.close();
    },
  );
});
