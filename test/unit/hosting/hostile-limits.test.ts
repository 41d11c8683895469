// What a hostile publisher cannot take from the host (issue 35): scratch space sized and not
// executable, the engine's log file bounded, image volumes kept off the host disk, per-plan
// hosting quotas, the runner's measured capacity, and the runner's sandbox settings.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../reference-app/server/config/env';
import { loadContainerRunnerConfig } from '../../../reference-app/server/hosting/config';
import type { RunContext } from '../../../reference-app/server/runtimes/runtime';
import { HostCapacity } from '../../../reference-app/server/hosting/capacity';
import { createContainerRuntime } from '../../../reference-app/server/hosting/containerRuntime';
import type { Deployment } from '../../../reference-app/server/hosting/deployment';
import { LogRing } from '../../../reference-app/server/hosting/logRing';
import { EngineError } from '../../../reference-app/server/hosting/engine';
import { isolatedHostConfig, limitsFor, LOG_MAX_MB, SCRATCH_MOUNTS, VOLUME_TMPFS_MB } from '../../../reference-app/server/hosting/limits';
import { HOSTING_QUOTAS, hostingQuotaProblem } from '../../../reference-app/server/payments/hostingQuotas';

const base = { limits: limitsFor({ memoryMb: 256 }), network: 'limelight-x', gpu: 'none' as const };

describe('host disk', () => {
  it('every writable path is a sized, noexec tmpfs; the engine keeps at most LOG_MAX_MB of log', () => {
    const config = isolatedHostConfig(base) as { Tmpfs: Record<string, string>; LogConfig: { Config: Record<string, string> } };
    expect(Object.keys(config.Tmpfs).sort()).toEqual(['/dev/shm', '/run', '/tmp', '/var/tmp']);
    for (const [path, options] of Object.entries(config.Tmpfs)) {
      expect(options, path).toMatch(/(^|,)noexec(,|$)/);
      expect(options, path).toMatch(/(^|,)nosuid(,|$)/);
      expect(options, path).toMatch(new RegExp(`size=${SCRATCH_MOUNTS[path]}m`));
    }
    expect(config.LogConfig.Config['max-size']).toBe(`${LOG_MAX_MB}m`);
  });

  it("an image's VOLUMEs become sized noexec tmpfs mounts, never a volume on the host disk", () => {
    const config = isolatedHostConfig({ ...base, imageVolumes: ['/data', '/var/cache/model'] }) as { Tmpfs: Record<string, string> };
    expect(config.Tmpfs['/data']).toBe(`rw,noexec,nosuid,nodev,size=${VOLUME_TMPFS_MB}m`);
    expect(config.Tmpfs['/var/cache/model']).toBe(`rw,noexec,nosuid,nodev,size=${VOLUME_TMPFS_MB}m`);
  });

  it('user namespaces and the sandbox runtime are asked of the engine only when the runner says so', () => {
    expect(isolatedHostConfig(base)).not.toHaveProperty('UsernsMode');
    expect(isolatedHostConfig(base)).not.toHaveProperty('Runtime');
    expect(isolatedHostConfig({ ...base, userns: 'auto', runtime: 'runsc' })).toMatchObject({ UsernsMode: 'auto', Runtime: 'runsc' });
  });
});

describe('hosting quotas by plan', () => {
  it('refuses a free public service asking 100 always-on and 1000 instances, naming the plan and the numbers', () => {
    const problem = hostingQuotaProblem('free', { minInstances: 100, maxInstances: 1000 }, { minInstances: 0, maxInstances: 0 });
    expect(problem).toMatch(/Your free plan allows .*instances/);
    expect(problem).toContain('1000');
  });

  it('counts the account’s other container services, and allows what the plan allows', () => {
    const free = HOSTING_QUOTAS.free;
    expect(
      hostingQuotaProblem(
        'free',
        { minInstances: free.minInstances, maxInstances: free.maxInstances },
        { minInstances: 0, maxInstances: 0 },
      ),
    ).toBeNull();
    expect(hostingQuotaProblem('free', { minInstances: 0, maxInstances: 1 }, { minInstances: 0, maxInstances: free.maxInstances })).toMatch(
      /you have .* elsewhere/,
    );
    expect(hostingQuotaProblem('pro', { minInstances: 2, maxInstances: 10 }, { minInstances: 0, maxInstances: 0 })).toBeNull();
    // An unknown plan gets the free plan's quota, never more.
    expect(
      hostingQuotaProblem('gold', { minInstances: 0, maxInstances: free.maxInstances + 1 }, { minInstances: 0, maxInstances: 0 }),
    ).not.toBeNull();
  });

  it('bigger plans have bigger quotas, and an image cap', () => {
    const plans = ['free', 'plus', 'pro', 'enterprise'] as const;
    for (let i = 1; i < plans.length; i += 1) {
      expect(HOSTING_QUOTAS[plans[i]!].maxInstances).toBeGreaterThanOrEqual(HOSTING_QUOTAS[plans[i - 1]!].maxInstances);
      expect(HOSTING_QUOTAS[plans[i]!].imageMb).toBeGreaterThanOrEqual(HOSTING_QUOTAS[plans[i - 1]!].imageMb);
    }
  });
});

describe("the runner's capacity", () => {
  it('reserves memory per instance and refuses beyond the measured capacity, with a clear reason', () => {
    const capacity = new HostCapacity({ memoryMb: 1000, cpus: 2 });
    const a = capacity.reserve(400);
    capacity.reserve(400);
    expect(() => capacity.reserve(400)).toThrow(EngineError);
    expect(() => capacity.reserve(400)).toThrow(/no room for another 400 MB instance \(800 of 1000 MB in use\)/);
    a();
    a(); // a second release is a no-op
    expect(() => capacity.reserve(400)).not.toThrow();
  });

  it('caps one instance’s limits at the machine', () => {
    const capacity = new HostCapacity({ memoryMb: 1000, cpus: 2 });
    expect(capacity.cap({ memoryMb: 16_384, cpus: 4, pids: 512 })).toEqual({ memoryMb: 1000, cpus: 2, pids: 512 });
  });
});

describe('runner configuration (sandbox, pull deadline, user namespaces)', () => {
  it('reads CONTAINER_SANDBOX, CONTAINER_PULL_TIMEOUT_S and CONTAINER_USERNS', () => {
    expect(loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker' }, { subordinateIds: () => true })).toMatchObject({
      sandbox: 'none',
      pullTimeoutMs: 600_000,
      userns: 'auto',
    });
    expect(
      loadContainerRunnerConfig({
        CONTAINER_RUNNER: 'docker',
        CONTAINER_SANDBOX: 'gvisor',
        CONTAINER_PULL_TIMEOUT_S: '30',
        CONTAINER_USERNS: 'auto',
      }),
    ).toMatchObject({ sandbox: 'gvisor', pullTimeoutMs: 30_000, userns: 'auto' });
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_SANDBOX: 'kata' })).toThrow(ConfigError);
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_PULL_TIMEOUT_S: '0' })).toThrow(
      /CONTAINER_PULL_TIMEOUT_S/,
    );
  });
});

describe('job messages', () => {
  it("never show the instance's internal address, only its name", async () => {
    // A port nothing listens on: the instance "died".
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const baseUrl = `http://127.0.0.1:${port}`;
    const deployment = {
      id: 'svc',
      logs: new LogRing(),
      acquire: async () => ({ baseUrl, instance: 'abc123def456', coldStartMs: 0, logCursor: 0, release: () => undefined }),
      instanceFailed: async () => undefined,
    } as unknown as Deployment;
    const ctx = {
      jobId: 'job-1',
      attempt: 1,
      serviceId: 'svc',
      endpoint: { method: 'POST', path: '/greet', parameters: [] },
      signal: new AbortController().signal,
      progress: () => undefined,
      partialText: () => undefined,
      storeMedia: async () => ({ url: '', content_type: '', size: 0 }),
      readFile: async () => ({ bytes: new Uint8Array(), contentType: '' }),
    } as unknown as RunContext;
    const run = createContainerRuntime(deployment).run({}, ctx);
    await expect(run).rejects.toThrow(/instance abc123def456 is unreachable/);
    await expect(run).rejects.not.toThrow(`127.0.0.1:${port}`);
  });
});
