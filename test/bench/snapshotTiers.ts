// The cold-start tiers of one real limelight.serve app under gVisor, side by side (issue 52;
// docs/deploy.md, "Snapshot cold starts"), for `npm run bench hosting`. Each round takes every
// tier once, in turn, so a change in the machine's load falls on all of them alike:
// - snapshot: restored by runsc from the memory snapshot taken after setup (nothing resident);
// - paused: a started, set-up container paused by Podman, unpaused (its memory held);
// - created: a container created ahead of time, started (the app imports and runs its setup);
// - image: created and started from the image (nothing prepared).
// Every figure is "no running instance" to "POST /draw answered". Memory held at zero instances
// is what the tier keeps between jobs: the paused container's cgroup (the engine's figure), none
// for the others. Everything it starts is removed at the end; it measures and never fails on timings.
import type Docker from 'dockerode';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitReady } from '../../reference-app/server/hosting/engine';
import { InstanceFactory, type WarmStrategy } from '../../reference-app/server/hosting/instances';
import { limitsFor } from '../../reference-app/server/hosting/limits';
import { RunscSnapshots, snapshotUnavailableReason } from '../../reference-app/server/hosting/snapshots/runsc';
import { podmanEnv } from '../../scripts/engine.mjs';
import { startTestEngine } from '../setup/containerEngine';
import { buildServeImage, imageConfigOf, SERVE_IMAGE } from '../setup/serveImage';

export const TIERS = ['snapshot', 'paused', 'created', 'image'] as const;
export type Tier = (typeof TIERS)[number];

export interface TierResults {
  times: Record<Tier, number[]>;
  /** Host memory each tier holds for the service while no instance runs, in MB. */
  heldMb: Record<Tier, number | null>;
  snapshot: { sizeMb: number; tookMs: number; checkpointMs: number };
}

async function draw(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/draw`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json()) as { n?: number };
  if (typeof body.n !== 'number') throw new Error(`unexpected answer ${res.status} ${JSON.stringify(body)}`);
}

/** Why the tiers cannot be compared here, or null. */
export function serveTiersSkipReason(): string | null {
  return snapshotUnavailableReason();
}

export async function measureServeTiers(rounds: number): Promise<TierResults> {
  buildServeImage();
  const config = imageConfigOf(SERVE_IMAGE);
  const limits = limitsFor({ memoryMb: 512 });
  const root = mkdtempSync(path.join(tmpdir(), 'limelight-bench-snapshots-'));
  const snapshots = new RunscSnapshots({ root, podmanEnv: podmanEnv() });
  const testEngine = await startTestEngine({ sandbox: 'gvisor' });
  const factory = new InstanceFactory(
    testEngine.engine,
    { deploymentId: testEngine.deploymentId('tiers'), image: SERVE_IMAGE, port: 8080, limits, gpu: 'none' },
    { healthPath: '/health', readyTimeoutMs: 60_000 },
  );
  const times = Object.fromEntries(TIERS.map((t) => [t, [] as number[]])) as Record<Tier, number[]>;
  const heldMb: Record<Tier, number | null> = { snapshot: 0, paused: null, created: 0, image: 0 };
  try {
    const snapshot = await snapshots.take({ key: 'bench', image: SERVE_IMAGE, config, env: { PORT: '8080' }, limits, timeoutMs: 120_000 });
    for (let round = 0; round < rounds; round += 1) {
      for (const tier of TIERS) {
        if (tier === 'snapshot') {
          // The runner keeps a fresh network namespace ready, as it keeps a paused container.
          await snapshots.prepareNamespaces(1);
          await new Promise((r) => setTimeout(r, 100));
          const t = performance.now();
          const restored = await snapshots.restore(snapshot, { port: 8080 });
          try {
            await waitReady(restored.baseUrl, { healthPath: '/health', timeoutMs: 60_000, intervalMs: 2 });
            await draw(restored.baseUrl);
            times.snapshot.push(performance.now() - t);
          } finally {
            await restored.stop();
          }
          continue;
        }
        const strategy: WarmStrategy = tier === 'image' ? 'none' : tier;
        await factory.replenish(strategy, 1);
        if (tier === 'paused' && heldMb.paused === null)
          heldMb.paused = await containerMemoryMb(testEngine.engine.docker, factory.spareIds[0]);
        // Let the engine settle after preparing, as a real pool is prepared long before a job.
        await new Promise((r) => setTimeout(r, 100));
        const t = performance.now();
        const { instance } = await factory.acquire();
        await draw(instance.baseUrl);
        times[tier].push(performance.now() - t);
        await factory.discard(instance.id);
      }
    }
    return {
      times,
      heldMb,
      snapshot: { sizeMb: snapshot.sizeBytes / 2 ** 20, tookMs: snapshot.tookMs, checkpointMs: snapshot.checkpointMs },
    };
  } finally {
    await factory.discardSpares().catch(() => undefined);
    await testEngine.stop();
    await snapshots.close();
    await snapshots.remove({ dir: path.join(root, 'snapshots', 'bench') });
    rmSync(root, { recursive: true, force: true });
  }
}

/** The memory the engine counts for a container (its cgroup), in MB; null when it says none. */
async function containerMemoryMb(docker: Docker, id: string | undefined): Promise<number | null> {
  if (!id) return null;
  try {
    const stats = (await docker.getContainer(id).stats({ stream: false })) as { memory_stats?: { usage?: number } };
    const usage = stats.memory_stats?.usage;
    return usage ? Math.round(usage / 2 ** 20) : null;
  } catch {
    return null;
  }
}
