import { createServer } from 'node:net';
import { startPlatformServer, type PlatformTestServer } from '../../reference-app/server/testing';
import type { TestEngine } from './containerEngine';

// A platform server as a publisher's `limelight push --deploy` needs it: the runner on the test
// engine and the platform's registry on a free loopback port (docs/publishing.md).

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
