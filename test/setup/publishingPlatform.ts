import { spawnSync } from 'node:child_process';
import { podmanEnv } from '../../scripts/engine.mjs';
import { freePort } from '../bench/serverLaunch';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import type { TestEngine } from './containerEngine';

// A platform server as a publisher's `limelight push --deploy` needs it: the runner on the test
// engine and the platform's registry on a free loopback port (docs/publishing.md).

export async function startPublishingPlatform(engine: TestEngine, dataDir: string): Promise<PlatformTestServer> {
  return startPlatformServer({
    dataDir,
    env: {
      CONTAINER_RUNNER: 'docker',
      DOCKER_HOST: engine.dockerHost,
      CONTAINER_MEMORY_MB: '512',
      PLATFORM_REGISTRY: 'on',
      PLATFORM_REGISTRY_ADDR: `127.0.0.1:${await freePort()}`,
    },
  });
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
