// The snapshot tier's proof (docs/deploy.md, "Snapshot cold starts"; issue 52): a real
// limelight.serve image, built by `limelight build`, checkpointed by runsc at its snapshot point
// and restored twice at once, each into a fresh sandbox and network namespace; both answer HTTP,
// draw different random numbers, read their own settings and count a time limit from the restore.
// Skips with how to run it when Podman, runsc or root is missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podmanEnv, runscUnavailableReason } from '../../../scripts/engine.mjs';
import {
  waitReady,
  InstanceFactory,
  LogRing,
  limitsFor,
  snapshotKey,
  SnapshotTier,
  type ImageConfig,
  RunscSnapshots,
  type Snapshot,
  SnapshotError,
  snapshotUnavailableReason,
} from '../../../reference-app/server/hosting';
import { engineSkipReason, startTestEngine } from '../../setup/containerEngine';
import { buildServeImage, imageConfigOf, SERVE_IMAGE } from '../../setup/serveImage';

const skip = engineSkipReason() ?? runscUnavailableReason() ?? snapshotUnavailableReason();
if (skip) console.warn(`snapshot tier tests skipped: ${skip}`);

async function post(baseUrl: string, route: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

describe.skipIf(skip)('memory snapshots of a limelight.serve app under runsc', () => {
  let root: string;
  let snapshots: RunscSnapshots;
  let config: ImageConfig;
  const output: string[] = [];

  beforeAll(() => {
    buildServeImage();
    config = imageConfigOf(SERVE_IMAGE);
    root = mkdtempSync(path.join(tmpdir(), 'limelight-snapshots-'));
    snapshots = new RunscSnapshots({ root, podmanEnv: podmanEnv(), onOutput: (id, _stream, line) => output.push(`${id}: ${line}`) });
  }, 600_000);

  afterAll(async () => {
    await snapshots?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('restores two instances from one snapshot: both answer, with their own random numbers and settings', async () => {
    const snapshot: Snapshot = await snapshots.take({
      key: 'probe',
      image: SERVE_IMAGE,
      config,
      env: { PORT: '8080' },
      limits: limitsFor({ memoryMb: 512 }),
      timeoutMs: 120_000,
    });
    expect(snapshot.sizeBytes).toBeGreaterThan(1_000_000);
    expect(output.some((line) => line.includes('limelight: snapshot point'))).toBe(true);
    // The snapshot is older than /wait's time limit (2 s) when the instances are restored.
    await new Promise((r) => setTimeout(r, 2500));
    const restoredAfter = Date.now() / 1000;
    const [a, b] = await Promise.all(
      ['first', 'second'].map((note) => snapshots.restore(snapshot, { port: 8080, env: { INSTANCE_NOTE: note } })),
    );
    try {
      await Promise.all([a!, b!].map((r) => waitReady(r.baseUrl, { healthPath: '/health', timeoutMs: 60_000 })));
      const [drawA, drawB] = await Promise.all([post(a!.baseUrl, '/draw', {}), post(b!.baseUrl, '/draw', {})]);
      expect(drawA.note).toBe('first');
      expect(drawB.note).toBe('second');
      // The 32 MB setup made came back with the snapshot; setup did not run again.
      expect(drawA.weights).toBe(32 * 2 ** 20);
      expect(drawA.n).not.toBe(drawB.n);
      const health = (await (await fetch(`${a!.baseUrl}/health`)).json()) as { status: string; setup: Record<string, number> };
      expect(health.status).toBe('READY');
      expect(health.setup.restored_at).toBeGreaterThanOrEqual(restoredAfter - 1);
      expect(health.setup.finished_at).toBeLessThan(restoredAfter);
      // 1.5 s of a 2 s limit, on a snapshot taken more than 2.5 s ago: counted from the run.
      expect(await post(b!.baseUrl, '/wait', { seconds: 1.5 })).toEqual({ slept: 1.5 });
    } finally {
      await Promise.all([a!.stop(), b!.stop()]);
    }
    // Nothing of the instances is left: no sandbox, no namespace, no folder.
    expect(execFileSync('runsc', [`--root=${path.join(root, 'state')}`, 'list', '-quiet'], { encoding: 'utf8' }).trim()).toBe('');
    expect(execFileSync('ip', ['netns', 'list'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })).not.toMatch(
      new RegExp(`^(${a!.netns}|${b!.netns})\\b`, 'm'),
    );
    expect(existsSync(path.join(root, 'instances')) ? readdirSync(path.join(root, 'instances')) : []).toEqual([]);
    await snapshots.remove(snapshot);
    expect(existsSync(snapshot.dir)).toBe(false);
  }, 300_000);

  it('a runner that starts again sweeps the sandboxes and snapshots a previous one left', async () => {
    const snapshot = await snapshots.take({
      key: 'left',
      image: SERVE_IMAGE,
      config,
      env: { PORT: '8080' },
      limits: limitsFor({ memoryMb: 512 }),
      timeoutMs: 120_000,
    });
    const left = await snapshots.restore(snapshot, { port: 8080 });
    // A new process on the same folder (the old one died without stopping anything).
    const again = new RunscSnapshots({ root, podmanEnv: podmanEnv() });
    expect(await again.sweep()).toEqual({ sandboxes: 1, snapshots: 1 });
    expect(execFileSync('runsc', [`--root=${path.join(root, 'state')}`, 'list', '-quiet'], { encoding: 'utf8' }).trim()).toBe('');
    expect(readdirSync(path.join(root, 'snapshots'))).toEqual([]);
    expect(existsSync(path.join(root, 'instances'))).toBe(false);
    await left.stop(); // its namespace
  }, 300_000);

  it('an app whose setup leaves a socket open, or that opted out, is refused in words, and nothing is left', async () => {
    const taking = snapshots.take({
      key: 'socket',
      image: SERVE_IMAGE,
      config,
      env: { PORT: '8080', OPEN_SOCKET: '1' },
      limits: limitsFor({ memoryMb: 512 }),
      timeoutMs: 120_000,
    });
    await expect(taking).rejects.toThrow(SnapshotError);
    await expect(taking).rejects.toThrow(/no snapshot: setup left 1 socket\(s\) open/);
    // snapshot: false (LIMELIGHT_SNAPSHOT=off in the image or the service's environment): refused the same way.
    const optedOut = snapshots.take({
      key: 'opted-out',
      image: SERVE_IMAGE,
      config,
      env: { PORT: '8080', LIMELIGHT_SNAPSHOT: 'off' },
      limits: limitsFor({ memoryMb: 512 }),
      timeoutMs: 120_000,
    });
    await expect(optedOut).rejects.toThrow(/no snapshot: the service opted out \(snapshot: false in limelight.yaml/);
    expect(existsSync(path.join(root, 'snapshots', 'socket'))).toBe(false);
    expect(execFileSync('runsc', [`--root=${path.join(root, 'state')}`, 'list', '-quiet'], { encoding: 'utf8' }).trim()).toBe('');
  }, 300_000);

  it('the runner restores from zero once a cold start has had the digest snapshotted; a failed restore starts cold', async () => {
    const t = await startTestEngine({ sandbox: 'gvisor' });
    const tier = new SnapshotTier(snapshots, { docker: t.engine.docker });
    const logs = new LogRing();
    const reported: { bytes: number; takenAt: Date }[] = [];
    const deploymentId = t.deploymentId('tier');
    const factory = new InstanceFactory(
      t.engine,
      { deploymentId, image: SERVE_IMAGE, port: 8080, limits: limitsFor({ memoryMb: 512 }), gpu: 'none' },
      { healthPath: '/health', readyTimeoutMs: 60_000, logs, snapshots: tier, onSnapshot: (snapshot) => reported.push(snapshot) },
    );
    const key = snapshotKey(deploymentId, SERVE_IMAGE);
    const said = () => logs.tail(500).map((l) => l.text);
    try {
      const first = await factory.acquire();
      expect(first.tier).toBe('image');
      await factory.discard(first.instance.id);
      // The first cold start of the digest has its snapshot taken in the background.
      const deadline = Date.now() + 120_000;
      while (tier.state(key).status === 'taking' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(tier.state(key).status, said().join('\n')).toBe('ready');
      expect(said().some((line) => /^Snapshot taken: [\d.]+ MB in \d+ ms/.test(line))).toBe(true);
      // The deployment's report (and so the hosting information) hears its size and time.
      expect(reported).toEqual([{ bytes: tier.ready(key)!.sizeBytes, takenAt: tier.ready(key)!.takenAt }]);
      // At zero instances nothing of the service runs or is paused: no spare is kept.
      await factory.replenish('paused', 1);
      expect(factory.spareIds).toEqual([]);
      expect(await t.leftovers()).toEqual([]);

      const restored = await factory.acquire();
      expect(restored.tier).toBe('snapshot');
      expect(Object.keys(restored.stages)).toEqual(['restore', 'ready']);
      expect((await post(restored.instance.baseUrl, '/draw', {})).weights).toBe(32 * 2 ** 20);
      await factory.discard(restored.instance.id);
      expect(readdirSync(path.join(root, 'instances'))).toEqual([]);

      // A snapshot that cannot be restored: said on the log, and the instance starts cold.
      rmSync(path.join(tier.ready(key)!.dir, 'image'), { recursive: true, force: true });
      const cold = await factory.acquire();
      expect(cold.tier).toBe('image');
      expect(
        said().some((line) => /^Restoring the snapshot failed \(.+\); starting cold$/.test(line)),
        said().join('\n'),
      ).toBe(true);
      expect((await post(cold.instance.baseUrl, '/draw', {})).weights).toBe(32 * 2 ** 20);
      await factory.discard(cold.instance.id);
      // A rollout keeps the new digest's snapshot and removes the others; deleting removes all.
      const dir = tier.ready(key)!.dir;
      await tier.removeDeployment(deploymentId, key);
      expect(tier.ready(key)?.dir).toBe(dir);
      await tier.removeDeployment(deploymentId);
      expect(tier.state(key).status).toBe('none');
      expect(existsSync(dir)).toBe(false);
    } finally {
      await factory.discardSpares();
      await tier.removeDeployment(deploymentId);
      await t.stop();
    }
  }, 400_000);
});
