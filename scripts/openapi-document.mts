// Prints the platform server's /v1/openapi.json: a throw-away server (PGlite in a temporary
// directory, random port), one GET, closed. Run by scripts/contract.mjs through tsx.
import { startPlatformServer } from '../reference-app/server/testing';

const server = await startPlatformServer();
try {
  const response = await fetch(`${server.url}/v1/openapi.json`);
  if (!response.ok) throw new Error(`/v1/openapi.json answered ${response.status}`);
  const document = (await response.json()) as { servers?: unknown };
  // The server list names this run's random port; the wire types do not depend on it.
  delete document.servers;
  process.stdout.write(JSON.stringify(document));
} finally {
  await server.close();
}
