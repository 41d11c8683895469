import { buildServer, SERVER_BUNDLE, serverBuildIsStale } from '../../scripts/build-server.mjs';

// The tests that start the platform server as a child process run the production
// bundle (`node dist/server/main.mjs`, as operators do; docs/deploy.md), not the sources through
// tsx: loading the bundle takes about 1.5 CPU seconds against about 7 for tsx compiling the
// server's sources at every start (docs/testing.md). This global setup builds the bundle once,
// before any file runs, when a server or widget source is newer than it (scripts/build-server.mjs).
export default async function setup() {
  if (serverBuildIsStale()) await buildServer();
}

/** `node` arguments that start the platform server (reference-app/server/main.ts). */
export const SERVER_ARGS = [SERVER_BUNDLE];
