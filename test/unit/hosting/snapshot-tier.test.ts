// The snapshot tier's decision to take a snapshot at all (docs/deploy.md, "Snapshot cold starts"):
// a service that opted out (LIMELIGHT_SNAPSHOT=off in its image, from `snapshot: false` in
// limelight.yaml, or in its own environment) is declined at once, in words on the deployment's
// log, and no sandbox starts; any other image goes on to runsc.
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { RunscSnapshots, type Snapshot } from '../../../reference-app/server/hosting/snapshots/runsc';
import { optOutOf, snapshotKey, SnapshotTier } from '../../../reference-app/server/hosting/snapshots/tier';

/** runsc's side, recorded: the sandbox starts a take() would make. */
class RecordingSnapshots extends RunscSnapshots {
  readonly started: string[] = [];
  constructor() {
    super({ root: '/nonexistent/limelight-snapshots' });
  }
  override take(options: Parameters<RunscSnapshots['take']>[0]): Promise<Snapshot> {
    this.started.push(options.key);
    return Promise.resolve({ dir: `/snapshots/${options.key}`, sizeBytes: 2 ** 20, takenAt: new Date(), tookMs: 5, checkpointMs: 1 });
  }
}

/** An engine whose image has the given environment (what `podman image inspect` answers). */
function engineWithEnv(env: string[]): Docker {
  return {
    getImage: () => ({ inspect: () => Promise.resolve({ Config: { Env: env, Cmd: ['limelight', 'serve'], WorkingDir: '/app' } }) }),
  } as unknown as Docker;
}

const source = (env?: Record<string, string>) => ({
  deploymentId: 'svc-1',
  image: 'localhost/app@sha256:abc',
  port: 8080,
  limits: { memoryMb: 256, cpus: 1, pids: 256 },
  ...(env ? { env } : {}),
});

describe('SnapshotTier.take', () => {
  it('declines an image with LIMELIGHT_SNAPSHOT=off at once: a log line, no sandbox, no snapshot', async () => {
    const runsc = new RecordingSnapshots();
    const tier = new SnapshotTier(runsc, { docker: engineWithEnv(['PATH=/usr/bin', 'LIMELIGHT_SNAPSHOT=off']) });
    const lines: string[] = [];
    await tier.take(source(), (line) => lines.push(line));
    expect(runsc.started).toEqual([]);
    expect(lines).toEqual([
      'No snapshot of this version: the service opted out (LIMELIGHT_SNAPSHOT=off in its image; snapshot: false in limelight.yaml sets it). Instances start cold.',
    ]);
    const key = snapshotKey('svc-1', 'localhost/app@sha256:abc');
    expect(tier.ready(key)).toBeNull();
    expect(tier.state(key)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/opted out/) });
    // Asked again (the next cold start of the digest): still nothing started.
    await tier.take(source(), (line) => lines.push(line));
    expect(runsc.started).toEqual([]);
  });

  it("declines when the service's environment says off, whatever the image says", async () => {
    const runsc = new RecordingSnapshots();
    const tier = new SnapshotTier(runsc, { docker: engineWithEnv(['LIMELIGHT_SNAPSHOT=on']) });
    const lines: string[] = [];
    await tier.take(source({ LIMELIGHT_SNAPSHOT: 'OFF' }), (line) => lines.push(line));
    expect(runsc.started).toEqual([]);
    expect(lines[0]).toMatch(/LIMELIGHT_SNAPSHOT=off in the service's environment/);
  });

  it('takes the snapshot of any other image (runsc starts once)', async () => {
    const runsc = new RecordingSnapshots();
    const tier = new SnapshotTier(runsc, { docker: engineWithEnv(['PATH=/usr/bin', 'LIMELIGHT_SNAPSHOT_WAIT=/x']) });
    const lines: string[] = [];
    await tier.take(source(), (line) => lines.push(line));
    const key = snapshotKey('svc-1', 'localhost/app@sha256:abc');
    expect(runsc.started).toEqual([key]);
    expect(tier.ready(key)).not.toBeNull();
    expect(lines[0]).toMatch(/^Snapshot taken: 1\.0 MB/);
  });
});

describe('optOutOf', () => {
  it('reads the last LIMELIGHT_SNAPSHOT line of the image, the service environment first', () => {
    expect(optOutOf([])).toBeNull();
    expect(optOutOf(['LIMELIGHT_SNAPSHOT=on'])).toBeNull();
    expect(optOutOf(['LIMELIGHT_SNAPSHOT_WAIT=off'])).toBeNull();
    expect(optOutOf(['LIMELIGHT_SNAPSHOT=off', 'LIMELIGHT_SNAPSHOT=on'])).toBeNull();
    expect(optOutOf(['LIMELIGHT_SNAPSHOT=on', 'LIMELIGHT_SNAPSHOT=Off'])).toMatch(/in its image/);
    expect(optOutOf(['LIMELIGHT_SNAPSHOT=off'], { LIMELIGHT_SNAPSHOT: 'on' })).toBeNull();
    expect(optOutOf([], { LIMELIGHT_SNAPSHOT: 'off' })).toMatch(/in the service's environment/);
  });
});
