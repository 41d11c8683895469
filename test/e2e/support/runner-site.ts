// The built site with the container runner on, for hosting.spec.ts: run as a child process
// (`node --conditions=source --import tsx test/e2e/support/runner-site.ts`) because the server
// resolves the package's sources through the `source` condition, which Playwright's own loader
// does not set. It starts from the seeded PGlite template of reference-app/server/testing.ts
// (well under a second, where a fresh data directory migrates and seeds for several), prints
// one JSON line `{ "url" }` and closes on SIGTERM. The suite's shared server keeps the runner
// off, as publish.spec.ts expects ("waiting for a runner").
import { startPlatformServer } from '../../../reference-app/server/testing';

const dockerHost = process.env.LIME_RUNNER_DOCKER_HOST;
if (!dockerHost) throw new Error('LIME_RUNNER_DOCKER_HOST is not set: start the engine first (scripts/engine.mjs)');

const server = await startPlatformServer({
  serveApp: true,
  env: {
    // Development: the dev mailbox confirms the publisher's account (docs/security.md).
    NODE_ENV: 'development',
    EMAIL_MIN_INTERVAL: '0',
    CONTAINER_RUNNER: 'docker',
    DOCKER_HOST: dockerHost,
    // A small host: the fixture needs far less than the limits table's 16 GB.
    CONTAINER_MEMORY_MB: '256',
    // The loopback registry the test pushes to (support/hosting.ts): images come only from the
    // registries allowed (docs/security.md).
    ...(process.env.CONTAINER_REGISTRIES ? { CONTAINER_REGISTRIES: process.env.CONTAINER_REGISTRIES } : {}),
  },
});
console.log(JSON.stringify({ url: server.url }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void server.close().then(() => process.exit(0)));
}
