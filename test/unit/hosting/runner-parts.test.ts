// The container runner's pure parts: the log ring and the Docker log stream's framing, the
// limits table, and the runner's configuration (the editor's
// sentence about a deployment: deployment-model.test.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../reference-app/server/config/env';
import { DEFAULT_DOCKER_HOST, loadContainerRunnerConfig } from '../../../reference-app/server/hosting/config';
import { isolatedHostConfig, limitsFor } from '../../../reference-app/server/hosting/limits';
import { DockerLogDemuxer, LOG_LINE_MAX_CHARS, LogRing } from '../../../reference-app/server/hosting/logRing';

const frame = (stream: 1 | 2, text: string) => {
  const body = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
};

describe('log ring', () => {
  it('keeps the last lines only, numbered for readers that resume', () => {
    const ring = new LogRing(3);
    for (const n of [1, 2, 3, 4, 5]) ring.push('stdout', 'a', `line ${n}`);
    expect(ring.tail(10).map((l) => l.text)).toEqual(['line 3', 'line 4', 'line 5']);
    expect(ring.since(5).map((l) => l.seq)).toEqual([5]);
    expect(ring.cursor).toBe(6);
    expect(ring.push('stderr', 'a', 'x'.repeat(LOG_LINE_MAX_CHARS + 10)).text).toMatch(/ …\[cut\]$/);
  });

  it('splits multiplexed frames into lines per stream, across chunk boundaries', () => {
    const lines: string[] = [];
    const demux = new DockerLogDemuxer((stream, text) => lines.push(`${stream}:${text}`));
    const bytes = Buffer.concat([frame(1, 'hello\nwor'), frame(2, 'oops\r\n'), frame(1, 'ld\nlast')]);
    demux.write(bytes.subarray(0, 5));
    demux.write(bytes.subarray(5, 20));
    demux.write(bytes.subarray(20));
    demux.end();
    expect(lines).toEqual(['stdout:hello', 'stderr:oops', 'stdout:world', 'stdout:last']);
  });
});

describe('limits', () => {
  it('sizes by the service’s declared resources, defaults to a small CPU service, and honours the cap', () => {
    expect(limitsFor()).toEqual({ memoryMb: 1024, cpus: 1, pids: 512 });
    expect(limitsFor({ cpu: 8, memoryMb: 32_768, gpu: 1 })).toEqual({ memoryMb: 32_768, cpus: 8, pids: 1024, gpus: 1 });
    expect(limitsFor({ memoryMb: 131_072 }).pids).toBe(2048);
    expect(limitsFor({ memoryMb: 4096 }, 512).memoryMb).toBe(512);
  });

  it('never privileged, all capabilities dropped, no GPU unless asked', () => {
    const config = isolatedHostConfig({ limits: limitsFor({ memoryMb: 256 }), network: 'limelight-x', gpu: 'none' });
    expect(config).toMatchObject({
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: [],
      ReadonlyRootfs: true,
      Memory: 256 * 2 ** 20,
      MemorySwap: 256 * 2 ** 20,
    });
    expect(config).not.toHaveProperty('DeviceRequests');
    expect(config).not.toHaveProperty('PortBindings');
    expect(isolatedHostConfig({ limits: limitsFor({ gpu: 1 }), network: 'n', gpu: 'docker', publishPort: 8080 })).toMatchObject({
      DeviceRequests: [{ Count: 1, Capabilities: [['gpu']] }],
      PortBindings: { '8080/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }] },
    });
  });
});

describe('runner configuration', () => {
  it('is off without CONTAINER_RUNNER and defaults DOCKER_HOST', () => {
    expect(loadContainerRunnerConfig({})).toBeNull();
    expect(loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker' })).toMatchObject({
      dockerHost: DEFAULT_DOCKER_HOST,
      warm: 'paused',
      gpu: 'none',
      reach: 'internal',
    });
  });

  it('refuses bad values with the variable’s name', () => {
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'k8s' })).toThrow(ConfigError);
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', DOCKER_HOST: '/var/run/docker.sock' })).toThrow(/DOCKER_HOST/);
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_WARM_POOL: 'hot' })).toThrow(/CONTAINER_WARM_POOL/);
    expect(() => loadContainerRunnerConfig({ CONTAINER_RUNNER: 'docker', CONTAINER_MEMORY_MB: '1.5' })).toThrow(/CONTAINER_MEMORY_MB/);
  });
});
