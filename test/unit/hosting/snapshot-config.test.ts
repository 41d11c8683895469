// The snapshot tier's settings and the sandbox it restores into (docs/deploy.md, "Snapshot cold
// starts"): CONTAINER_SNAPSHOTS is gVisor's only, refused in words elsewhere; one key per
// deployment and digest; the restored sandbox keeps the runner's limits and read-only root.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../reference-app/server/config/env';
import { loadContainerRunnerConfig } from '../../../reference-app/server/hosting/config';
import { limitsFor, SCRATCH_MOUNTS } from '../../../reference-app/server/hosting/limits';
import { INSTANCE_FILE, sandboxSpec } from '../../../reference-app/server/hosting/snapshots/runsc';
import { snapshotKey } from '../../../reference-app/server/hosting/snapshots/tier';

const host = { subordinateIds: () => true };

describe('CONTAINER_SNAPSHOTS', () => {
  it('is off by default and on only under gVisor, with an absolute folder', () => {
    expect(loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker' }, host)?.snapshots).toBeNull();
    expect(
      loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_SANDBOX: 'gvisor', CONTAINER_SNAPSHOTS: 'on' }, host)?.snapshots,
    ).toEqual({ dir: '/var/lib/limelight/snapshots' });
    expect(
      loadContainerRunnerConfig(
        { CONTAINER_RUNNER: 'docker', CONTAINER_SANDBOX: 'gvisor', CONTAINER_SNAPSHOTS: 'on', CONTAINER_SNAPSHOT_DIR: '/srv/snaps' },
        host,
      )?.snapshots,
    ).toEqual({ dir: '/srv/snaps' });
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_SNAPSHOTS: 'on' }, host)).toThrow(ConfigError);
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_SNAPSHOTS: 'on' }, host)).toThrow(
      /CONTAINER_SNAPSHOTS.*CONTAINER_SANDBOX=gvisor/,
    );
    expect(() =>
      loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_SANDBOX: 'gvisor', CONTAINER_SNAPSHOTS: 'yes' }, host),
    ).toThrow(/CONTAINER_SNAPSHOTS/);
    expect(() =>
      loadContainerRunnerConfig(
        { CONTAINER_RUNNER: 'docker', CONTAINER_SANDBOX: 'gvisor', CONTAINER_SNAPSHOTS: 'on', CONTAINER_SNAPSHOT_DIR: 'snaps' },
        host,
      ),
    ).toThrow(/CONTAINER_SNAPSHOT_DIR/);
  });
});

describe('snapshot keys and sandboxes', () => {
  it('keys one snapshot per deployment and digest', () => {
    const a = snapshotKey('svc-1', 'r.example/app@sha256:aa');
    expect(a).toMatch(/^svc-1-[0-9a-f]{16}$/);
    expect(snapshotKey('svc-1', 'r.example/app@sha256:bb')).not.toBe(a);
    expect(snapshotKey('svc-2', 'r.example/app@sha256:aa')).not.toBe(a);
  });

  it("runs the image's command with the runner's limits, a read-only root and the instance file read-only", () => {
    const spec = sandboxSpec({
      rootfs: '/snap/rootfs',
      image: { env: ['PATH=/usr/bin', 'PORT=1'], cmd: ['python3', '-m', 'limelight', 'serve'], workingDir: '/app' },
      env: { PORT: '8080', LIMELIGHT_SNAPSHOT_WAIT: INSTANCE_FILE },
      limits: limitsFor({ memoryMb: 512, cpu: 1 }),
      netns: 'll-snap-7',
      instanceDir: '/snap/i-1',
    }) as {
      process: { args: string[]; env: string[]; cwd: string; capabilities: Record<string, string[]>; noNewPrivileges: boolean };
      root: { readonly: boolean };
      mounts: { destination: string; type: string; source: string; options?: string[] }[];
      linux: { namespaces: { type: string; path?: string }[]; resources: { memory: { limit: number }; pids: { limit: number } } };
    };
    expect(spec.process.args).toEqual(['python3', '-m', 'limelight', 'serve']);
    // The runner's PORT wins over the image's.
    expect(spec.process.env).toEqual(['PATH=/usr/bin', 'PORT=8080', `LIMELIGHT_SNAPSHOT_WAIT=${INSTANCE_FILE}`]);
    expect(spec.process.cwd).toBe('/app');
    expect(Object.values(spec.process.capabilities).flat()).toEqual([]);
    expect(spec.process.noNewPrivileges).toBe(true);
    expect(spec.root.readonly).toBe(true);
    expect(spec.linux.resources.memory.limit).toBe(512 * 2 ** 20);
    expect(spec.linux.resources.pids.limit).toBe(limitsFor({ memoryMb: 512 }).pids);
    expect(spec.linux.namespaces).toContainEqual({ type: 'network', path: '/var/run/netns/ll-snap-7' });
    expect(spec.mounts).toContainEqual({ destination: '/limelight', type: 'bind', source: '/snap/i-1', options: ['rbind', 'ro'] });
    for (const [path, mb] of Object.entries(SCRATCH_MOUNTS)) {
      expect(spec.mounts.find((m) => m.destination === path)?.options).toEqual(['rw', 'noexec', 'nosuid', 'nodev', `size=${mb}m`]);
    }
  });
});
