import { spawnSync } from 'node:child_process';
import { podmanEnv } from '../../scripts/engine.mjs';
import { freePort } from '../bench/serverLaunch';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import type { TestEngine } from './containerEngine';

// A platform server as a publisher's `limelight push --deploy` needs it: the runner on the test
// engine and the platform's registry on a free loopback port (docs/publishing.md).

export async function startPublishingPlatform(engine: TestEngine, dataDir: string): Promise<PlatformTestServer> {
  return (await startRegistryPlatform(engine, dataDir, { CONTAINER_MEMORY_MB: '512' })).server;
}

/**
 * The same with the platform registry's address answered (`host`, where tests push and pull) and
 * settings of the test's own on top (`env`: a quota, a smaller memory cap, …).
 */
export async function startRegistryPlatform(
  engine: TestEngine,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ server: PlatformTestServer; host: string }> {
  const host = `127.0.0.1:${await freePort()}`;
  const server = await startPlatformServer({
    dataDir,
    env: {
      CONTAINER_RUNNER: 'docker',
      DOCKER_HOST: engine.dockerHost,
      CONTAINER_MEMORY_MB: '256',
      PLATFORM_REGISTRY: 'on',
      PLATFORM_REGISTRY_ADDR: host,
      ...env,
    },
  });
  return { server, host };
}

/** Removes the images of service `name`: the one built and the copies the runner pulled (by digest, untagged). */
export function removeImagesOf(name: string): void {
  const images = spawnSync('podman', ['images', '--format', '{{.ID}} {{.Repository}}'], { env: podmanEnv(), encoding: 'utf8' });
  const ids = images.stdout
    .split('\n')
    .filter((line) => line.endsWith(`/${name}`))
    .map((line) => line.split(' ')[0]!);
  if (ids.length) spawnSync('podman', ['rmi', '--force', ...new Set(ids)], { env: podmanEnv() });
}
