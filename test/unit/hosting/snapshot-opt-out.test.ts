// A service's `runtime.snapshot: false` on the runner (docs/deploy.md, "Snapshot cold starts"):
// its deployment never meets the snapshot tier (no snapshot taken after its first cold start,
// none restored), and turning it off on a deployment that has one rolls the deployment and
// removes the snapshot. The engine is recorded and each instance answers from a local HTTP
// server; the tier is the real SnapshotTier over a runsc side that records what it is asked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Deployment, type DeploymentSpec } from '../../../reference-app/server/hosting/deployment';
import type { ContainerEngine } from '../../../reference-app/server/hosting/engine';
import type { DeploymentReport } from '../../../reference-app/server/hosting/fleet';
import { RunscSnapshots, type Snapshot } from '../../../reference-app/server/hosting/snapshots/runsc';
import { snapshotKey, SnapshotTier } from '../../../reference-app/server/hosting/snapshots/tier';

const IMAGE = 'localhost/app@sha256:abc';

/** runsc's side, recorded: the snapshots taken and removed (no sandbox runs). */
class RecordingSnapshots extends RunscSnapshots {
  readonly taken: string[] = [];
  readonly removed: string[] = [];
  constructor() {
    super({ root: '/nonexistent/limelight-snapshots' });
  }
  override take(options: Parameters<RunscSnapshots['take']>[0]): Promise<Snapshot> {
    this.taken.push(options.key);
    return Promise.resolve({ dir: options.key, sizeBytes: 2 ** 20, takenAt: new Date(), tookMs: 5, checkpointMs: 1 });
  }
  override remove(snapshot: Snapshot): Promise<void> {
    this.removed.push(snapshot.dir);
    return Promise.resolve();
  }
}

let health: Server;
let baseUrl: string;
beforeAll(async () => {
  health = createServer((_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => health.close(() => resolve())));

/** An engine whose every container answers at once; records the containers created. */
function recordingEngine() {
  const created: string[] = [];
  const engine = {
    async pull() {},
    async resolvePulled(image: string) {
      return { reference: image, sizeMb: 10, volumes: [] };
    },
    async create() {
      created.push(`c${created.length + 1}`);
      return created.at(-1)!;
    },
    async start() {},
    async followLogs() {
      return () => undefined;
    },
    async baseUrl() {
      return baseUrl;
    },
    async state() {
      return { running: true };
    },
    async remove() {},
    async removeDeployment() {},
    async exitReason() {
      return null;
    },
    async lastLogLines() {
      return [];
    },
  } as unknown as ContainerEngine;
  return { engine, created };
}

const docker = {
  getImage: () => ({ inspect: () => Promise.resolve({ Config: { Env: ['PATH=/usr/bin'], Cmd: ['limelight', 'serve'] } }) }),
} as unknown as Docker;

const spec = (snapshot?: boolean): DeploymentSpec => ({
  id: 'svc-1',
  image: IMAGE,
  port: 8080,
  healthPath: '/openapi.json',
  instance: { limits: { memoryMb: 256, cpus: 1, pids: 256 }, gpu: 'none' },
  minInstances: 0,
  maxInstances: 1,
  idleTimeoutS: 300,
  ...(snapshot === undefined ? {} : { snapshot }),
});

function deploymentWith(snapshot: boolean | undefined) {
  const runsc = new RecordingSnapshots();
  const tier = new SnapshotTier(runsc, { docker });
  const { engine, created } = recordingEngine();
  const reports: DeploymentReport[] = [];
  const deployment = new Deployment(engine, spec(snapshot), {
    warm: 'none',
    readyTimeoutMs: 5000,
    snapshots: tier,
    onReport: (report) => reports.push(report),
  });
  return { deployment, runsc, tier, created, reports };
}

const KEY = snapshotKey('svc-1', IMAGE);

describe('runtime.snapshot on the runner', () => {
  it('by default the first cold start of a digest has its snapshot taken', async () => {
    const { deployment, runsc, tier } = deploymentWith(undefined);
    expect((await deployment.deploy()).status).toBe('running');
    await expect.poll(() => tier.ready(KEY)).not.toBeNull();
    expect(runsc.taken).toEqual([KEY]);
    await deployment.stop();
  });

  it('false: the deployment never asks the tier for a snapshot, and none is restored', async () => {
    const { deployment, runsc, tier, created } = deploymentWith(false);
    expect((await deployment.deploy()).status).toBe('running');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runsc.taken).toEqual([]);
    expect(tier.state(KEY)).toEqual({ status: 'none' });
    expect(created).toEqual(['c1']);
    await deployment.stop();
  });

  it('turned off on a deployment with a snapshot: the deployment rolls and the snapshot is removed', async () => {
    const { deployment, runsc, tier, created, reports } = deploymentWith(true);
    await deployment.deploy();
    await expect.poll(() => tier.ready(KEY)).not.toBeNull();
    expect(reports.at(-1)?.snapshot).toMatchObject({ bytes: 2 ** 20 });

    await deployment.update(spec(false));
    // A new instance from a factory without the tier; the snapshot of the digest is gone.
    expect(created).toEqual(['c1', 'c2']);
    expect(runsc.removed).toEqual([KEY]);
    expect(tier.state(KEY)).toEqual({ status: 'none' });
    expect(reports.at(-1)?.snapshot).toBeNull();
    expect(runsc.taken).toEqual([KEY]);

    // Turned on again: rolls, and the next cold start takes a new one.
    await deployment.update(spec(true));
    expect(created).toEqual(['c1', 'c2', 'c3']);
    await expect.poll(() => runsc.taken).toEqual([KEY, KEY]);
    await deployment.stop();
  });
});
